// Loads one API resource for a page: data, error, whether the route exists, and a reload.
import { useCallback, useEffect, useState } from 'react';
import { api, ApiError } from '../api.js';
import { newestWins } from '../newest-wins.js';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** The server has no such route yet (a feature of a later version). */
  unavailable: boolean;
  reload(): Promise<void>;
}

export function useApi<T>(path: string | null): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(path !== null);
  const [unavailable, setUnavailable] = useState(false);
  // An answer to an earlier read that comes back after a later one started is dropped (newest-wins.ts).
  const [reads] = useState(() =>
    newestWins<T>((answer) => {
      setData(answer);
      setError(undefined);
    }),
  );
  const reload = useCallback(async () => {
    if (path === null) return;
    setLoading(true);
    let outcome: 'adopted' | 'stale' | 'failed';
    try {
      outcome = await reads.read(() => api<T>('GET', path));
    } catch (err) {
      // Thrown only while this read is the newest.
      outcome = 'failed';
      if (err instanceof ApiError && err.routeMissing) setUnavailable(true);
      else setError(err);
    }
    if (outcome !== 'stale') setLoading(false);
  }, [path, reads]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, unavailable, reload };
}
