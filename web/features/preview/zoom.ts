// The image viewer's zoom and pan, as plain arithmetic (product.md §2 'Image viewer', §9).

/** The image's translation (px, from the centre of the stage) and scale. */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

export const IDENTITY: View = { scale: 1, x: 0, y: 0 };
export const ZOOM_STEP = 0.25;
export const MIN_SCALE = 0.25;
/** Double click or double tap steps through these scales. */
export const ZOOM_CYCLE = [1, 2, 4] as const;
/** Two taps closer than this are a double tap. */
export const DOUBLE_TAP_MS = 300;

/** The largest scale: about 4 plus how much larger the image really is than it is shown. */
export function maxScale(naturalToDisplayed: number): number {
  return 4 + (Number.isFinite(naturalToDisplayed) && naturalToDisplayed > 0 ? naturalToDisplayed : 1);
}

export function clampScale(scale: number, max: number): number {
  return Math.min(max, Math.max(MIN_SCALE, scale));
}

/** The view at `scale`, keeping the point `at` (relative to the stage's centre) where it is on screen. */
export function zoomAt(view: View, scale: number, at: Point): View {
  // Not zoomed in, the image sits in the middle again.
  if (scale <= 1) return { scale, x: 0, y: 0 };
  const k = scale / view.scale;
  return { scale, x: at.x - k * (at.x - view.x), y: at.y - k * (at.y - view.y) };
}

/** Where a zoom happens: the largest scale allowed and the fixed point (from the stage's centre). */
export interface Around {
  max: number;
  at: Point;
}

/** One wheel notch: a step in (wheel up) or out (wheel down). */
export function wheelZoom(view: View, deltaY: number, around: Around): View {
  if (deltaY === 0) return view;
  const scale = clampScale(view.scale + (deltaY < 0 ? ZOOM_STEP : -ZOOM_STEP), around.max);
  return zoomAt(view, scale, around.at);
}

/** The next scale of the double-click cycle 1, 2, 4: the first one above the current scale, else 1. */
export function cycleScale(scale: number): number {
  return ZOOM_CYCLE.find((s) => s > scale + 1e-6) ?? 1;
}

/** A pinch: the scale grows with the distance between the two fingers. */
export function pinchZoom(start: View, ratio: number, around: Around): View {
  return zoomAt(start, clampScale(start.scale * ratio, around.max), around.at);
}

/** The CSS transform of a view. */
export function transformOf(view: View): string {
  return `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
}
