import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceBreaks } from './subtitle-srt';
import { formatVttTime } from './subtitle-vtt';
import { readSubtitleAsVtt, subtitleKindOf, subtitleToVtt } from './subtitles';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'subtitles-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, data: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, data);
  return path;
}

const srt = (text: string) => subtitleToVtt('srt', Buffer.from(text));
const ass = (text: string) => subtitleToVtt('ass', Buffer.from(text));

describe('subtitleKindOf', () => {
  it.each([
    ['a.vtt', 'vtt'], ['a.srt', 'srt'], ['a.SRT', 'srt'], ['a.ass', 'ass'], ['a.SSA', 'ass'],
    ['a.txt', undefined], ['asrt', undefined], ['a.srt.bak', undefined],
  ])('%s is %s', (name, kind) => {
    expect(subtitleKindOf(name)).toBe(kind);
  });
});

describe('replaceBreaks', () => {
  it.each(['<br>', '<BR/>', '<br />', '<br class="x">', '<Br>'])('turns %s into a newline', (tag) => {
    expect(replaceBreaks(`a${tag}b`)).toBe('a\nb');
  });

  it.each(['<b>bold</b>', '<bra>', '<i>x</i>'])('leaves %s alone', (text) => {
    expect(replaceBreaks(text)).toBe(text);
  });
});

describe('formatVttTime', () => {
  it.each([
    [0, '00:00:00.000'], [1000, '00:00:01.000'], [3_723_045, '01:02:03.045'], [360_000_000, '100:00:00.000'],
  ])('%i ms is %s', (ms, text) => {
    expect(formatVttTime(ms)).toBe(text);
  });
});

describe('SRT to WebVTT', () => {
  it('converts cues, timings and line breaks', () => {
    const input = '\uFEFF1\r\n00:00:01,000 --> 00:00:04,000\r\nHello\r\nworld\r\n\r\n2\r\n00:01:02,500 --> 00:01:03,000\r\n<i>Bye</i>\r\n';
    expect(srt(input)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nHello\nworld\n\n00:01:02.500 --> 00:01:03.000\n<i>Bye</i>\n');
  });

  it('keeps every part of First<br>Second<BR/>Third<br />Fourth on its own line', () => {
    const out = srt('1\n00:00:01,000 --> 00:00:02,000\nFirst<br>Second<BR/>Third<br />Fourth\n');
    expect(out).toContain('First\nSecond\nThird\nFourth');
    expect(out).not.toContain('FirstSecond');
  });

  it.each([
    ['a dot fraction and missing hours', '01:02.5 --> 01:03.25', '00:01:02.500 --> 00:01:03.250'],
    ['no fraction', '00:00:01 --> 00:00:02', '00:00:01.000 --> 00:00:02.000'],
    ['position coordinates after the timing', '00:00:01,000 --> 00:00:02,000 X1:10 X2:20 Y1:5 Y2:9', '00:00:01.000 --> 00:00:02.000'],
    ['hours past 99', '100:00:00,000 --> 100:00:01,000', '100:00:00.000 --> 100:00:01.000'],
  ])('reads a timing with %s', (_label, timing, expected) => {
    expect(srt(`1\n${timing}\ntext\n`)).toBe(`WEBVTT\n\n${expected}\ntext\n`);
  });

  it('accepts cues without a number, text holding an empty line, and a text line that is a number', () => {
    const input = '00:00:01,000 --> 00:00:02,000\nfirst\n\nstill first\n\n2\n00:00:03,000 --> 00:00:04,000\n42\n';
    expect(srt(input)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfirst\nstill first\n\n00:00:03.000 --> 00:00:04.000\n42\n');
  });

  it('escapes "-->" inside text so it cannot end the cue', () => {
    expect(srt('1\n00:00:01,000 --> 00:00:02,000\nA --> B\n')).toContain('\nA --&gt; B\n');
  });

  it.each([
    ['UTF-8', Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nCafé\n', 'utf8')],
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nCafé\n', 'utf16le')])],
    ['UTF-16BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nCafé\n', 'utf16le').swap16()])],
    ['Latin-1', Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nCafé\n', 'latin1')],
  ])('decodes %s text', (_label, data) => {
    expect(subtitleToVtt('srt', data)).toContain('\nCafé\n');
  });

  it('converts an empty file to an empty WebVTT file', () => {
    expect(srt(' \n\n')).toBe('WEBVTT\n');
  });

  it.each([
    ['text with no timing line', Buffer.from('this is not a subtitle file\nat all\n')],
    ['binary data', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])],
    ['UTF-16 without a BOM', Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nhi\n', 'utf16le')],
    ['a broken UTF-16 body after a BOM', Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41])],
  ])('answers 400 for %s', (_label, data) => {
    expect(() => subtitleToVtt('srt', data)).toThrow(expect.objectContaining({ code: 'bad_request', status: 400 }));
  });
});

describe('ASS/SSA to WebVTT', () => {
  const header = '[Script Info]\nTitle: test\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname\nStyle: Default,Arial\n\n';
  const events = '[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n';

  it('converts Dialogue lines, keeping commas in the text', () => {
    const input = `${header}${events}Dialogue: 0,0:00:01.00,0:00:03.50,Default,,0,0,0,,Hello, world\n`;
    expect(ass(input)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nHello, world\n');
  });

  it('strips override tags and drawings, and turns \\N, \\n, \\h into newline, space and no-break space', () => {
    const text = String.raw`{\an8}{\i1}One{\i0}\NTwo\nhalf\hsp{\p1}m 0 0 l 10 10{\p0}`;
    const out = ass(`${header}${events}Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,${text}\n`);
    expect(out).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOne\nTwo half\u00a0sp\n');
  });

  it('escapes & < > that WebVTT would read as markup', () => {
    const out = ass(`${header}${events}Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,a < b && c > d\n`);
    expect(out).toContain('\na &lt; b &amp;&amp; c &gt; d\n');
  });

  it('orders cues by start time and skips comments, drawings-only lines and bad times', () => {
    const input = `${header}${events}` +
      'Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,second\n' +
      'Comment: 0,0:00:00.00,0:00:09.00,Default,,0,0,0,,a note\n' +
      'Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,first\n' +
      'Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\p1}m 0 0 l 1 1\n' +
      'Dialogue: 0,garbage,0:00:04.00,Default,,0,0,0,,bad time\n';
    expect(ass(input)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfirst\n\n00:00:05.000 --> 00:00:06.000\nsecond\n');
  });

  it('reads SSA v4 files and any Format field order', () => {
    const ssa = '[Script Info]\r\nScriptType: v4.00\r\n\r\n[Events]\r\nFormat: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n' +
      'Dialogue: Marked=0,0:01:00.10,0:01:02.00,*Default,,0000,0000,0000,,SSA line\r\n';
    expect(ass(ssa)).toBe('WEBVTT\n\n00:01:00.100 --> 00:01:02.000\nSSA line\n');
    const reordered = '[events]\nformat: End ,START, Style, Text\nDialogue: 0:00:02.00,0:00:01.00,Default,a, b\n';
    expect(ass(reordered)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na, b\n');
  });

  it('converts a file with sections but no dialogue to an empty WebVTT file', () => {
    expect(ass(header)).toBe('WEBVTT\n');
  });

  it('answers 400 for text that is not ASS/SSA', () => {
    expect(() => ass('Dialogue: 0,0:00:01.00,0:00:02.00,,,,,,,hello\nnot really\n')).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });
});

describe('readSubtitleAsVtt', () => {
  it('converts sample.srt with the <br> scenario of api-scenarios.md', async () => {
    const path = await file('sample.srt', '1\n00:00:01,000 --> 00:00:02,000\nFirst<br>Second<BR/>Third<br />Fourth\n');
    const out = await readSubtitleAsVtt(path);
    expect(out).toContain('First\nSecond\nThird\nFourth');
    expect(out?.startsWith('WEBVTT\n')).toBe(true);
  });

  it.each(['upper.SRT', 'show.ssa', 'show.ASS'])('converts %s whatever the case of its extension', async (name) => {
    const body = name.toLowerCase().endsWith('srt')
      ? '1\n00:00:01,000 --> 00:00:02,000\nhi\n'
      : '[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,hi\n';
    expect(await readSubtitleAsVtt(await file(name, body))).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n');
  });

  it('answers null for a .vtt file, to be served unchanged', async () => {
    expect(await readSubtitleAsVtt(await file('a.vtt', 'WEBVTT\n'))).toBeNull();
  });

  it('answers 404 for a missing file', async () => {
    await expect(readSubtitleAsVtt(join(dir, 'missing.srt'))).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('answers 400 for a file that is not a subtitle', async () => {
    await expect(readSubtitleAsVtt(await file('notes.txt', 'hello'))).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('answers 400 for garbage in a .srt file', async () => {
    await expect(readSubtitleAsVtt(await file('garbage.srt', Buffer.from([0, 1, 2, 3, 255, 254])))).rejects.toMatchObject({ status: 400 });
  });

  it('answers 413 past the size cap, and converts a file at the cap', async () => {
    const body = '1\n00:00:01,000 --> 00:00:02,000\nhi\n';
    const path = await file('big.srt', body);
    await expect(readSubtitleAsVtt(path, body.length - 1)).rejects.toMatchObject({ code: 'too_large', status: 413 });
    expect(await readSubtitleAsVtt(path, body.length)).toContain('\nhi\n');
  });
});
