// Inline line icons (24x24, drawn with currentColor): no icon font, nothing from the network.
import { memo } from 'react';

const PATHS = {
  folder: 'M3 7.5A2.5 2.5 0 0 1 5.5 5H9l2 2h7.5A2.5 2.5 0 0 1 21 9.5v7a2.5 2.5 0 0 1-2.5 2.5h-13A2.5 2.5 0 0 1 3 16.5z',
  file: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19',
  // A file with a mark of its kind inside (file-icon.tsx).
  fileText: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M8.5 12.5h7M8.5 15.5h7M8.5 18.5h4',
  fileDocument: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M8.5 12h7M8.5 14.5h7M8.5 17h7M8.5 19.5h3',
  fileCode: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M10 12.5 7.5 15l2.5 2.5M14 12.5l2.5 2.5-2.5 2.5',
  fileMarkdown: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M7.5 18v-5l2.25 2.5L12 13v5M15.5 13v5M13.75 16.25 15.5 18l1.75-1.75',
  fileImage: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M7.5 18.5l3-3.5 2.5 2.5 1.5-1.5 2 2.5M8.5 11.5a1 1 0 1 0 2 0 1 1 0 1 0-2 0',
  fileAudio: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M11 18.5v-6l4-1v5M11 18.5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zM15 16.5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0z',
  fileVideo: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M10 12v6l5-3z',
  filePdf: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M7.5 13h9v5h-9zM9.5 15.5h5',
  fileArchive: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M10.5 4.5h1.5M10.5 7h1.5M10.5 9.5h1.5M10.5 12h1.5M9.5 14.5h3.5v4h-3.5z',
  fileSpreadsheet: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M8 11.5h8v7H8zM8 15h8M12 11.5v7',
  filePresentation: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M7.5 11.5h9v6h-9zM12 17.5v2',
  folderPlus: 'M3 7.5A2.5 2.5 0 0 1 5.5 5H9l2 2h7.5A2.5 2.5 0 0 1 21 9.5v7a2.5 2.5 0 0 1-2.5 2.5h-13A2.5 2.5 0 0 1 3 16.5zM12 10.5v5M9.5 13h5',
  filePlus: 'M13.5 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8.5zM13.5 3v5.5H19M12 12v5M9.5 14.5h5',
  home: 'M3.5 11 12 4l8.5 7M5.5 9.5V20h4.5v-5.5h4V20h4.5V9.5',
  settings: 'M4 6.5h8.5M17.5 6.5H20M4 12h2.5M11.5 12H20M4 17.5h10M19 17.5h1M12.5 6.5a2.5 2.5 0 1 0 5 0 2.5 2.5 0 1 0-5 0M6.5 12a2.5 2.5 0 1 0 5 0 2.5 2.5 0 1 0-5 0M14 17.5a2.5 2.5 0 1 0 5 0 2.5 2.5 0 1 0-5 0',
  logout: 'M10 4H6.5A2.5 2.5 0 0 0 4 6.5v11A2.5 2.5 0 0 0 6.5 20H10M15 16l4-4-4-4M19 12H9',
  login: 'M14 4h3.5A2.5 2.5 0 0 1 20 6.5v11a2.5 2.5 0 0 1-2.5 2.5H14M10 16l4-4-4-4M14 12H4',
  userPlus: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM3 20a6 6 0 0 1 12 0M18.5 8v6M15.5 11h6',
  help: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.6 9.2a2.5 2.5 0 1 1 3.4 2.3c-.6.3-1 .8-1 1.5v.5M12 16.8v.2',
  menu: 'M4 7h16M4 12h16M4 17h16',
  more: 'M12 6.5v.2M12 12v.2M12 17.5v.2',
  close: 'M6 6l12 12M18 6 6 18',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  arrow: 'M12 5v14M6.5 13.5 12 19l5.5-5.5',
  viewList: 'M4 6h16M4 12h16M4 18h16',
  viewGrid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  viewGallery: 'M4 4h16v11H4zM4 18h4M10 18h4M16 18h4',
  info: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 11v6M12 7.5v.2',
  selectMultiple: 'M8 8h11v11H8zM5 15V5h10M11 13.5l2 2 3.5-4',
  share: 'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  rename: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  move: 'M3 7.5A2.5 2.5 0 0 1 5.5 5H9l2 2h7.5A2.5 2.5 0 0 1 21 9.5v7a2.5 2.5 0 0 1-2.5 2.5h-13A2.5 2.5 0 0 1 3 16.5zM9 13h6M12.5 10.5 15 13l-2.5 2.5',
  paste: 'M9 4h6v3H9zM9 5.5H6.5A1.5 1.5 0 0 0 5 7v12.5A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5V7a1.5 1.5 0 0 0-1.5-1.5H15',
  up: 'M12 19V5M6.5 10.5 12 5l5.5 5.5',
  search: 'M10.5 17.5a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4.5-4.5',
  terminal: 'M4 5h16v14H4zM7.5 9.5 10 12l-2.5 2.5M12 15h4.5',
  plus: 'M12 5v14M5 12h14',
  trash: 'M4.5 7h15M9.5 7V5h5v2M6.5 7l1 12.5a1.5 1.5 0 0 0 1.5 1.5h6a1.5 1.5 0 0 0 1.5-1.5l1-12.5M10 11v6M14 11v6',
  copy: 'M9 9h10v10H9zM5 15V5h10',
  chevron: 'M9.5 6l6 6-6 6',
  chevronBack: 'M14.5 6l-6 6 6 6',
  expand: 'M14 4h6v6M20 4l-7 7M10 20H4v-6M4 20l7-7',
  external: 'M14 4h6v6M20 4l-9 9M18 14v4.5a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 4 18.5v-11A1.5 1.5 0 0 1 5.5 6H10',
  music: 'M9 18V6l11-2v12M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zM20 16a3 3 0 1 1-6 0 3 3 0 0 1 6 0z',
  download: 'M12 4v11M7.5 10.5 12 15l4.5-4.5M5 20h14',
  upload: 'M12 20V9M7.5 13.5 12 9l4.5 4.5M5 4h14',
  lock: 'M6.5 11h11a1.5 1.5 0 0 1 1.5 1.5v6a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 5 18.5v-6A1.5 1.5 0 0 1 6.5 11zM8.5 11V7.5a3.5 3.5 0 0 1 7 0V11',
  searchOff: 'M10.5 17.5a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4.5-4.5M8.5 8.5l4 4M12.5 8.5l-4 4',
  warning: 'M12 4 21 19.5H3zM12 10v4.5M12 17v.2',
  offline: 'M2.5 8.8a14 14 0 0 1 4.2-2.6M10.6 5.1A14 14 0 0 1 21.5 8.8M5.5 12.2a9.5 9.5 0 0 1 3.4-2M15 10.4a9.5 9.5 0 0 1 3.5 1.8M8.8 15.6a5 5 0 0 1 6.4 0M12 19v.2M3 3l18 18',
} as const;

export type IconName = keyof typeof PATHS;

// Icons that point along the reading direction; base.css mirrors them in right-to-left locales.
const DIRECTIONAL: ReadonlySet<IconName> = new Set<IconName>(['chevron', 'chevronBack', 'logout', 'login']);

/**
 * A decorative line icon (hidden from screen readers: the control around it carries the name).
 * Memoized: a listing row renders again for every item it shows while the list scrolls, and its
 * icon seldom changes.
 */
export const Icon = memo(function Icon({ name, className }: { name: IconName; className?: string }) {
  const classes = ['icon', DIRECTIONAL.has(name) ? 'icon-directional' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <svg className={classes} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
});
