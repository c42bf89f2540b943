// A build thread that dies when asked to: a message whose subject is CRASH_SUBJECT makes it throw outside
// any build (as a bug in a callback of a library would), which ends the thread with every build it holds.
// Every other message is built as build-thread.ts builds it.
import type { BuildRequest } from '../../src/delivery/build-message.js';
import build from '../../src/delivery/build-thread.js';

export const CRASH_SUBJECT = 'crash the thread';

export default async function crashingBuild(req: BuildRequest): ReturnType<typeof build> {
  if (req.message.subject === CRASH_SUBJECT) {
    setImmediate(() => {
      throw new Error('the build thread crashed');
    });
    return new Promise(() => undefined); // never answers: the thread ends first
  }
  return build(req);
}
