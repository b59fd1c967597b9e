/**
 * `value`, updated only after it has stayed unchanged for `ms` milliseconds (the username search's
 * 500 ms of spec section 9, the resale summary's request). Values are compared by their JSON, so an
 * object rebuilt at each render with the same content is the same value; `value` must be plain data.
 */
import { useEffect, useMemo, useState } from 'react';

export function useDebouncedValue<T>(value: T, ms: number): T {
  const key = JSON.stringify(value) ?? 'null';
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return useMemo(() => JSON.parse(settled) as T, [settled]);
}
