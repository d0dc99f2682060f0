import { useEffect, useRef, useState, type Dispatch, type PointerEvent as ReactPointerEvent, type RefObject, type SetStateAction } from 'react';
import { cycleScale, DOUBLE_TAP_MS, IDENTITY, maxScale, pinchZoom, wheelZoom, zoomAt, type Point, type View } from './zoom';

type Gesture =
  | { kind: 'pan'; from: Point; start: View }
  | { kind: 'pinch'; distance: number; start: View }
  | null;

/** A tap moving less than this (px) may be half of a double tap. */
const TAP_SLOP = 12;

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function midpoint(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/** A point of the page relative to the centre of `element`. */
function fromCentre(element: HTMLElement, point: Point): Point {
  const box = element.getBoundingClientRect();
  return { x: point.x - (box.left + box.width / 2), y: point.y - (box.top + box.height / 2) };
}

/** How much larger the image is than it is shown (its layout box, before the transform). */
function ratioOf(image: HTMLImageElement | null): number {
  return image && image.clientWidth > 0 ? image.naturalWidth / image.clientWidth : 1;
}

interface Zoomer {
  stage: RefObject<HTMLDivElement | null>;
  max: () => number;
  setView: Dispatch<SetStateAction<View>>;
}

/** The wheel zooms the image instead of scrolling the page (so the listener is not passive). */
function useWheel({ stage, max, setView }: Zoomer): void {
  useEffect(() => {
    const element = stage.current;
    if (!element) return undefined;
    const onWheel = (event: WheelEvent): void => {
      event.preventDefault();
      setView((v) => wheelZoom(v, event.deltaY, { max: max(), at: fromCentre(element, { x: event.clientX, y: event.clientY }) }));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [stage, max, setView]);
}

/** Counts taps of a finger or pen: the second within 300 ms (product.md §9) is a double tap. */
function useDoubleTap(onDouble: (point: Point) => void) {
  const lastTap = useRef<{ at: number; point: Point } | null>(null);
  return (event: ReactPointerEvent, from: Point): void => {
    const point = { x: event.clientX, y: event.clientY };
    if (distance(point, from) > TAP_SLOP) return;
    const previous = lastTap.current;
    if (previous && event.timeStamp - previous.at <= DOUBLE_TAP_MS && distance(point, previous.point) <= TAP_SLOP * 2) {
      lastTap.current = null;
      onDouble(point);
    } else {
      lastTap.current = { at: event.timeStamp, point };
    }
  };
}

/** Drag pans with one pointer, two pointers pinch. */
function usePointers(view: View, zoomer: Zoomer & { cycleAt: (point: Point) => void }) {
  const { max, setView, cycleAt } = zoomer;
  const latest = useRef(view);
  useEffect(() => {
    latest.current = view;
  });
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture>(null);
  const pointerType = useRef('mouse');
  const tap = useDoubleTap(cycleAt);
  const restart = (): void => {
    const [a, b] = [...pointers.current.values()];
    if (a && b) gesture.current = { kind: 'pinch', distance: distance(a, b), start: latest.current };
    else gesture.current = a ? { kind: 'pan', from: a, start: latest.current } : null;
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>): void => {
    if (event.button !== 0) return;
    pointerType.current = event.pointerType;
    try {
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // The pointer may already be gone (a very short tap); the gesture works without capture.
    }
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    restart();
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>): void => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const g = gesture.current;
    const [a, b] = [...pointers.current.values()];
    if (g?.kind === 'pinch' && a && b) {
      setView(pinchZoom(g.start, distance(a, b) / g.distance, { max: max(), at: fromCentre(event.currentTarget, midpoint(a, b)) }));
    } else if (g?.kind === 'pan' && a) {
      setView({ ...g.start, x: g.start.x + a.x - g.from.x, y: g.start.y + a.y - g.from.y });
    }
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>): void => {
    if (!pointers.current.delete(event.pointerId)) return;
    const g = gesture.current;
    restart();
    // A mouse has dblclick; fingers and pens count their own taps.
    if (event.pointerType !== 'mouse' && event.type === 'pointerup' && g?.kind === 'pan') tap(event, g.from);
  };
  // A double tap may also arrive as dblclick: taps were counted already.
  const onDoubleClick = (event: { clientX: number; clientY: number }): void => {
    if (pointerType.current === 'mouse') cycleAt({ x: event.clientX, y: event.clientY });
  };
  return { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onDoubleClick };
}

/**
 * Zoom and pan of the image in `stage` (product.md §2 'Image viewer'): drag pans, the wheel steps
 * by 0.25, a double click or double tap cycles 1, 2, 4, two fingers pinch; all with pointer events.
 */
export function useZoom(stage: RefObject<HTMLDivElement | null>, image: RefObject<HTMLImageElement | null>) {
  const [view, setView] = useState<View>(IDENTITY);
  const [max] = useState(() => () => maxScale(ratioOf(image.current)));
  useWheel({ stage, max, setView });
  const cycleAt = (point: Point): void => {
    const element = stage.current;
    if (element) setView((v) => zoomAt(v, Math.min(cycleScale(v.scale), max()), fromCentre(element, point)));
  };
  const handlers = usePointers(view, { stage, max, setView, cycleAt });
  return { view, handlers };
}
