import { useEffect, useRef, type RefObject } from 'react';

/**
 * Listens to an element's events for as long as it is mounted, each calling the handler prop of the latest render
 * (`events`: event type → prop name). One listener per event, added once and removed on unmount, so React's strict
 * mode (mount, unmount, mount again) leaves exactly one, and a new handler each render adds none.
 */
export function useElementEvents<P>(element: RefObject<HTMLElement | null>, ready: boolean, events: Record<string, keyof P>, props: P): void {
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    const target = element.current;
    if (!ready || !target) return undefined;
    const removers = Object.entries(events).map(([type, prop]) => {
      const listener = (event: Event) => (latest.current[prop] as ((detail: unknown) => void) | undefined)?.((event as CustomEvent).detail);
      target.addEventListener(type, listener);
      return () => target.removeEventListener(type, listener);
    });
    return () => removers.forEach((remove) => remove());
  }, [element, ready, events]);
}
