import type MimeTypes from 'mime-types';
import { loadLater } from '../lib/load-later';

/**
 * MIME types from file names (api.md §5.5): filebrowser's override table for the media and text
 * classes first (exact case, then lower case), then the complete mime-db table through mime-types.
 */

const words = (list: string): string[] => list.trim().split(/\s+/);

const overrideClasses: Readonly<Record<string, string[]>> = {
  'video/x-generic': words(`afl asf avi avs dif divx dl dv fli flv fmf gl isu m1v m2v m4v mjpg mkv moov
    mov movie mp4 mpe mpeg mpg mv ogv qt qtc rv vdo viv vivo vos xdr xsr`),
  // filebrowser's table maps .opus to video/ogg; kept for parity.
  'video/ogg': ['opus'],
  'audio/x-generic': words(`aac aif aifc aiff amr au caf flac funk gsd gsm it jam kar la lam lma m2a m3u
    m4a mjf mod mp2 mp3 mpa mpga my oga ogg pfunk qcp ra ram rmi rmm rmp rpm s3m sid snd spx tsi voc vox
    vqe vqf vql wav xm`),
  'image/x-generic': words(`art bmp flo fpx g3 gif ico ief iefs jfif jfif-tbnl jpe jpeg jpg jps jut nap
    naplps nif niff pbm pct pcx pgm pic pict png ppm qif qti qtif rast rf rgb rp svf svg tif tiff turbot
    wbmp webp x-png xbm xif xpm xwd avif`),
  'application/pdf': ['pdf'],
  'text/plain': words(`abc acgi aip asm asp c c++ cc com conf cpp csh css csv cxx def el etx f f77 f90
    flx for g h hh hlb htc htm html htmls htt htx ics icz idc jav java js ksh list log lsp lst lsx m
    manifest mar mcf mjs p pas pl pm py rexx rt rtf rtx s scm sdml sgm sgml sh shtml spc ssi talk tcl tcsh
    text tsv txt uil uni unis uri uris uu uue vcard vcf vcs vue wml wmls wsc xml zsh`),
  'audio/midi': ['mid', 'midi'],
};

const overrides = new Map<string, string>();
for (const [mime, exts] of Object.entries(overrideClasses)) {
  for (const ext of exts) overrides.set(`.${ext}`, mime);
}

// Its table of 2,400 types is built when first looked up in, not at every start.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
export const mimeTypes = loadLater<typeof MimeTypes>('mime-types', () => require('mime-types'));

/** The MIME type implied by a file's extension (including the dot), or undefined when unknown. */
export function mimeOfExtension(ext: string): string | undefined {
  if (ext === '' || ext === '.') return undefined;
  const own = overrides.get(ext) ?? overrides.get(ext.toLowerCase());
  if (own) return own;
  const found = mimeTypes().lookup(ext.toLowerCase());
  return found === false ? undefined : found;
}

/**
 * application/* types whose content is text, so a listing can call them `text` without reading
 * them (JSON, XML, scripts, playlists...).
 */
const textualApplication =
  /^application\/(json|xml|javascript|ecmascript|x-javascript|x-sh|x-csh|yaml|x-yaml|toml|sql|x-httpd-php|x-perl|x-python|x-ruby|x-tex|x-latex|rtf|x-subrip|x-ndjson|graphql|vnd\.apple\.mpegurl|x-mpegurl|x-ipynb\+json)$|\+(json|xml|yaml)$/;

/** The media class a MIME type decides by itself, or undefined for application/* and unknown types. */
export type MimeClass = 'video' | 'audio' | 'image' | 'pdf' | 'text';

/** Classifies a MIME type the way §5.5 step 4 does before the binary test. */
export function classOfMime(mime: string): MimeClass | undefined {
  if (mime.startsWith('video')) return 'video';
  if (mime.startsWith('audio')) return 'audio';
  if (mime.startsWith('image')) return 'image';
  if (mime.endsWith('pdf')) return 'pdf';
  if (mime.startsWith('text')) return 'text';
  return undefined;
}

/** True for application/* types whose files are text (decided without sniffing). */
export function isTextualApplication(mime: string): boolean {
  return textualApplication.test(mime);
}
