import { type IsoDate, todayIn } from '@doctors-portal/contract';
import { useEffect, useRef, useState } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * Today in `timeZone`, once the browser may know it (`useHydrated`): at once in a page the
 * browser draws itself; after a hydration, from a task of its own. The first date formatter
 * for a time zone loads the browser's time zone data, on a phone a long task by itself
 * (docs/performance.md), which would otherwise lengthen the render that follows hydration.
 */
export function useToday(timeZone: string | undefined): IsoDate | null {
  const hydrated = useHydrated();
  const hydrating = useRef(!hydrated).current;
  const [zoneLoaded, setZoneLoaded] = useState(false);
  const waiting = hydrating && hydrated && timeZone !== undefined && !zoneLoaded;

  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      todayIn(timeZone);
      setZoneLoaded(true);
    });
    return () => clearTimeout(timer);
  }, [waiting, timeZone]);

  return hydrated && timeZone !== undefined && !waiting ? todayIn(timeZone) : null;
}
