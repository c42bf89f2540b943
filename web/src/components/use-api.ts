// Loads one API resource for a page: data, error, whether the route exists, and a reload.
import { useCallback, useEffect, useState } from 'react';
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
  const reload = useCallback(async () => {
    if (path === null) return;
    setLoading(true);
    try {
      setData(await api<T>('GET', path));
      setError(undefined);
    } catch (err) {
      if (err instanceof ApiError && err.routeMissing) setUnavailable(true);
      else setError(err);
    } finally {
      setLoading(false);
    }
  }, [path]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, unavailable, reload };
}
