// Loads one API resource for a page: data, error, whether the route exists, and a reload.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../api.js';

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
  /** The last read asked for: an answer to an earlier one that comes back after it is dropped. */
  const latest = useRef(0);
  const reload = useCallback(async () => {
    if (path === null) return;
    const read = ++latest.current;
    setLoading(true);
    try {
      const answer = await api<T>('GET', path);
      if (read !== latest.current) return;
      setData(answer);
      setError(undefined);
    } catch (err) {
      if (read !== latest.current) return;
      if (err instanceof ApiError && err.routeMissing) setUnavailable(true);
      else setError(err);
    } finally {
      if (read === latest.current) setLoading(false);
    }
  }, [path]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, unavailable, reload };
}
