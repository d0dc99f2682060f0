import type { ViewMode } from './state';

/** The list and mosaic rows: one line or two beside an icon, the same height at every width. */
const FIXED: Record<Exclude<ViewMode, 'mosaic gallery'>, number> = { list: 52, mosaic: 76 };

/** The space between two cards of a row (`.entry-row` gap, --space-2). */
const COLUMN_GAP = 8;

/**
 * A gallery card below its picture: padding (8 + 8), border (1 + 1), the name (15 px × 1.5), two
 * gaps (4 + 4), the date (13 px × 1.5), plus the row's own padding below the card (8). The card
 * fills its row (listing.css), so a text that is a pixel taller only makes the picture shorter:
 * this number keeps the picture's shape, never the names from showing.
 */
const GALLERY_TEXT = 76;

/** The picture of a gallery card is 4:3, as wide as its column. */
const GALLERY_RATIO = 3 / 4;

/**
 * The height of one row of items in `view`, for a listing `width` px wide laid out in `columns`
 * columns: the gallery's cards grow with their column, so their rows do too.
 */
export function rowHeightFor(view: ViewMode, width: number, columns: number): number {
  if (view !== 'mosaic gallery') return FIXED[view];
  const column = Math.max(0, (width - COLUMN_GAP * (columns - 1)) / columns);
  return Math.round(column * GALLERY_RATIO) + GALLERY_TEXT;
}
