// Requests that answer out of order: a view that re-queries when its inputs change (a page size,
// a partition, an auto-refresh tick) may get an older request's answer after a newer one's. Only
// the latest request's answer may be shown.
import { useCallback, useRef } from 'react';

/** `begin()` marks a new request; the function it returns says whether that one is still the latest. */
export function useLatestRequest(): () => () => boolean {
  const latest = useRef(0);
  return useCallback(() => {
    const request = ++latest.current;
    return () => request === latest.current;
  }, []);
}
