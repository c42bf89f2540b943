// A request started by a click or a submission runs once at a time: a second click while the first is
// with the server does nothing (a double click once sent two test pushes, started two replays, and asked
// for two two-factor keys, of which the page could show the one not kept). ActionForm (action-form.tsx)
// runs its submissions through it; buttons outside a form use it directly.
import { useCallback, useRef } from 'react';

/** Runs `work` unless a run of this component's is still going; answers undefined when it did not. */
export function useOneAtATime(): <T>(work: () => Promise<T>) => Promise<T | undefined> {
  const busy = useRef(false);
  return useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    if (busy.current) return undefined;
    busy.current = true;
    try {
      return await work();
    } finally {
      busy.current = false;
    }
  }, []);
}
