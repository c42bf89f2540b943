// Which edges of a box scrolled sideways have more beyond them: the table wrapper's shadows (CSS
// `.table-wrap.more-left` / `.more-right`, inset box-shadows). Drawn as classes and box-shadows, not as a
// background image on the wrapper, which would stop axe-core judging the contrast of the cells' text.
import { useCallback, useEffect, useRef, useState } from 'react';

export function useScrollEdges<T extends HTMLElement>(): {
  ref: (el: T | null) => void;
  left: boolean;
  right: boolean;
} {
  const [edges, setEdges] = useState({ left: false, right: false });
  const [el, setEl] = useState<T | null>(null);
  const ref = useCallback((node: T | null) => setEl(node), []);
  const frame = useRef(0);
  useEffect(() => {
    if (!el) return;
    const measure = () => {
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => {
        const left = el.scrollLeft > 0;
        const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
        setEdges((e) => (e.left === left && e.right === right ? e : { left, right }));
      });
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(el);
    return () => {
      cancelAnimationFrame(frame.current);
      el.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  }, [el]);
  return { ref, ...edges };
}
