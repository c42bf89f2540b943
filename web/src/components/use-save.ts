// One change sent to the API at a time: whether it runs, what it did, what went wrong.
import { useState } from 'react';

export interface Save {
  busy: boolean;
  /** What the last change did, in words; cleared when the next one starts. */
  done: string | undefined;
  error: unknown;
  /**
   * Sends `request`, says `message` (from the answer) and waits for `onSaved` (the page's reload), so
   * what is shown follows the server before `busy` ends.
   */
  run<T>(request: () => Promise<T>, message: string | ((answer: T) => string)): Promise<void>;
}

export function useSave(onSaved: () => Promise<void>): Save {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<unknown>();
  const run = async <T>(request: () => Promise<T>, message: string | ((answer: T) => string)) => {
    setBusy(true);
    setDone(undefined);
    setError(undefined);
    try {
      const answer = await request();
      setDone(typeof message === 'string' ? message : message(answer));
      await onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, done, error, run };
}
