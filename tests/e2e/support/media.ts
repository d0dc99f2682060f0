// Media fixtures for the preview tests, made on the spot: pictures with sharp, a silent MP3 by
// hand, a PDF, STL and OBJ models as text, and an MP4 recorded by the browser itself
// (MediaRecorder), since ffmpeg is not among the test packages.
import sharp from 'sharp';
import type { Page } from 'playwright-core';

/** A picture worth looking at: a gradient, a few shapes and a label. */
function artwork(width: number, height: number, label: string): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#1d3b72"/><stop offset="0.55" stop-color="#3f7fd9"/><stop offset="1" stop-color="#f2b45a"/>
  </linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <circle cx="${width * 0.72}" cy="${height * 0.3}" r="${height * 0.16}" fill="#fff4d6" opacity="0.9"/>
  <path d="M0 ${height} L${width * 0.3} ${height * 0.55} L${width * 0.55} ${height * 0.8} L${width * 0.75} ${height * 0.6} L${width} ${height} Z" fill="#13284d" opacity="0.85"/>
  <text x="${width * 0.06}" y="${height * 0.14}" font-family="sans-serif" font-size="${height * 0.08}" fill="#ffffff">${label}</text>
</svg>`);
}

export function jpeg(width: number, height: number, label: string): Promise<Buffer> {
  return sharp(artwork(width, height, label)).jpeg({ quality: 85 }).toBuffer();
}

export function png(width: number, height: number, label: string): Promise<Buffer> {
  return sharp(artwork(width, height, label)).png().toBuffer();
}

/** A TIFF, LZW-compressed. */
export function tiff(width: number, height: number, label: string): Promise<Buffer> {
  return sharp(artwork(width, height, label)).tiff({ compression: 'lzw' }).toBuffer();
}

/** A camera-raw stand-in: a plain uncompressed TIFF, as DNG is TIFF inside. */
export function rawTiff(width: number, height: number, label: string): Promise<Buffer> {
  return sharp(artwork(width, height, label)).tiff({ compression: 'none' }).toBuffer();
}

/** About 2.6 s of silence: MPEG-1 Layer III frames, 128 kbit/s, 44.1 kHz, mono, all side info zero. */
export function silentMp3(frames = 100): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc0]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** A one-page PDF saying `text`. */
export function pdf(text: string): Buffer {
  const stream = `BT /F1 28 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const CUBE = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
const QUADS = [[1, 4, 3, 2], [5, 6, 7, 8], [1, 2, 6, 5], [2, 3, 7, 6], [3, 4, 8, 7], [4, 1, 5, 8]];

/** A wedge-topped block as ASCII STL (facets with their normals). */
export function stl(): string {
  const v = (i: number): number[] => CUBE[i - 1]!.map((c, axis) => (axis === 2 ? c * 0.6 : c * 1.4));
  const facets = QUADS.flatMap(([a, b, c, d]) => [[a!, b!, c!], [a!, c!, d!]]).map((tri) => {
    const [p, q, r] = tri.map(v) as [number[], number[], number[]];
    const u = q.map((x, i) => x - p[i]!);
    const w = r.map((x, i) => x - p[i]!);
    const n = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
    const len = Math.hypot(...n) || 1;
    return `facet normal ${n.map((x) => x / len).join(' ')}\n outer loop\n${[p, q, r].map((x) => `  vertex ${x.join(' ')}`).join('\n')}\n endloop\nendfacet`;
  });
  return `solid block\n${facets.join('\n')}\nendsolid block\n`;
}

/** A cube as OBJ (vertices and quads). */
export function obj(): string {
  return `# cube\n${CUBE.map((p) => `v ${p.join(' ')}`).join('\n')}\n${QUADS.map((q) => `f ${q.join(' ')}`).join('\n')}\n`;
}

/** An SRT subtitle shown for the first seconds. */
export function srt(text: string): string {
  return `1\n00:00:00,000 --> 00:00:30,000\n${text}\n`;
}

/** A short MP4 (H.264) recorded in the page from a canvas with MediaRecorder. */
export async function recordMp4(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/mp4;codecs=avc1' });
    const parts: Blob[] = [];
    recorder.ondataavailable = (event) => parts.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 30; frame++) {
      context.fillStyle = `hsl(${frame * 12}, 70%, 45%)`;
      context.fillRect(0, 0, 320, 180);
      context.fillStyle = '#fff';
      context.fillRect(20 + frame * 8, 70, 40, 40);
      await new Promise((r) => setTimeout(r, 40));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(parts, { type: 'video/mp4' }).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}
