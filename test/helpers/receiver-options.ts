// The options of an InboundReceiver a test starts on its own (no database role around it): loopback,
// any port, 1 MiB messages, no connection rate; `over` sets what the test is about.
import type { ReceiverOptions } from '../../src/inbound/receiver.js';

export function receiverOptions(over: Partial<ReceiverOptions> = {}): ReceiverOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    hostname: 'mx.test',
    returnPathLabel: 'send',
    testDomain: 'test.txmail.example',
    maxSize: 1024 * 1024,
    connectionsPerMinute: 0,
    ...over,
  };
}
