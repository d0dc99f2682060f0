import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';

const SRT = '1\n00:00:01,000 --> 00:00:02,500\nFirst<br>Second<BR/>Third<br />Fourth\n\n2\n00:00:03,000 --> 00:00:04,000\n<br class="x">After\n';
const VTT = 'WEBVTT\n\n00:00.500 --> 00:01.000\n<b>as is</b>\n';
const ASS = [
  '[Script Info]',
  'ScriptType: v4.00+',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hello\\Nworld',
  '',
].join('\n');

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    tree: {
      'movie/sample.srt': SRT,
      'movie/upper.SRT': SRT,
      'movie/sample.vtt': VTT,
      'movie/sample.ass': ASS,
      'movie/old.ssa': ASS.replace('v4.00+', 'v4.00'),
      'movie/binary.srt': Buffer.from([0, 1, 2, 3, 0, 0xff, 0xfe, 0]),
      'movie/empty-timing.srt': 'just some words\nand no timing line\n',
      'movie/notes.txt': 'hello',
      'movie/folder.srt/inner.txt': 'x',
    },
  });
  await t.addUser({ username: 'viewer', perm: { download: false } });
});

afterAll(async () => {
  await t.close();
});

function get(url: string, opts: { user?: string; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { 'x-auth': t.token(opts.user), ...opts.headers } });
}

describe('GET /api/subtitle{p}', () => {
  it('converts SRT to WebVTT, every <br> variant becoming a line break', async () => {
    const res = await get('/api/subtitle/movie/sample.srt?inline=true');
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('WEBVTT')).toBe(true);
    expect(res.body).toContain('00:00:01.000 --> 00:00:02.500\nFirst\nSecond\nThird\nFourth');
    expect(res.body).not.toContain('FirstSecond');
    expect(res.body).toContain('\nAfter');
  });

  it('sends the headers of a private, script-free download of WebVTT', async () => {
    const res = await get('/api/subtitle/movie/sample.srt?inline=true');
    expect(res.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private');
    expect(res.headers['content-disposition']).toBe("inline; filename*=utf-8''sample.srt");
    expect(res.headers['content-security-policy']).toContain("script-src 'none';");
    expect(res.headers['last-modified']).toBeDefined();
    const attachment = await get('/api/subtitle/movie/sample.srt');
    expect(attachment.headers['content-disposition']).toBe("attachment; filename*=utf-8''sample.srt");
    expect(attachment.headers['content-type']).toBe('text/vtt; charset=utf-8');
  });

  it.each(['movie/sample.ass', 'movie/old.ssa'])('converts SubStation Alpha (%s) to WebVTT', async (path) => {
    const res = await get(`/api/subtitle/${path}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^WEBVTT/);
    expect(res.body).toContain('00:00:01.000 --> 00:00:02.000\nHello\nworld');
  });

  it('converts an upper-case .SRT too', async () => {
    expect((await get('/api/subtitle/movie/upper.SRT')).body).toContain('First\nSecond');
  });

  it.each([[true], [false]])('serves a .vtt file as it is (inline=%s) labelled WebVTT', async (inline) => {
    const res = await get(`/api/subtitle/movie/sample.vtt${inline ? '?inline=true' : ''}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(VTT);
    expect(res.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private');
  });

  it('answers 304 when the subtitle has not changed', async () => {
    const first = await get('/api/subtitle/movie/sample.srt');
    const again = await get('/api/subtitle/movie/sample.srt', { headers: { 'if-modified-since': String(first.headers['last-modified']) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it.each([
    ['a folder', '/api/subtitle/movie', 'a directory is not a subtitle file'],
    ['a folder named like a subtitle', '/api/subtitle/movie/folder.srt', 'a directory is not a subtitle file'],
    ['a file that is no subtitle', '/api/subtitle/movie/notes.txt', 'not a subtitle file (.vtt, .srt, .ass, .ssa)'],
    ['binary data named .srt', '/api/subtitle/movie/binary.srt', 'not a text subtitle file (binary data or an unmarked UTF-16 encoding)'],
    ['text without cues named .srt', '/api/subtitle/movie/empty-timing.srt', 'not an SRT subtitle file: no cue with a valid timing line'],
  ])('answers 400 for %s', async (_what, url, message) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(`400 Bad Request (${message})\n`);
  });

  it('answers 404 for a missing file', async () => {
    expect((await get('/api/subtitle/movie/none.srt')).statusCode).toBe(404);
  });

  it('answers 202 without the download permission', async () => {
    const res = await get('/api/subtitle/movie/sample.srt', { user: 'viewer' });
    expect([res.statusCode, res.body]).toEqual([202, '202 Accepted\n']);
  });
});
