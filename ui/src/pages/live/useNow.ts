import { useEffect, useState } from 'react';

/** The time now, renewed every `ms` while the component is shown: one clock for a whole board of ticking calls. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
