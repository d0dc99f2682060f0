import { describe, expect, it } from 'vitest';
import { contentDisposition, pathEscape } from './content-disposition';

describe('pathEscape', () => {
  it.each([
    ['document.pdf', 'document.pdf'],
    ['日本語.txt', '%E6%97%A5%E6%9C%AC%E8%AA%9E.txt'],
    ['my file.txt', 'my%20file.txt'],
    ['a+b=c&d$e:f@g~h_i-j.k', 'a+b=c&d$e:f@g~h_i-j.k'],
    ['a/b;c,d?e', 'a%2Fb%3Bc%2Cd%3Fe'],
    ['quote"and\'tick', 'quote%22and%27tick'],
    ['line\r\nbreak', 'line%0D%0Abreak'],
    ['100%', '100%25'],
    ['café', 'caf%C3%A9'],
    ['😀', '%F0%9F%98%80'],
  ])('encodes %j as %j', (name, expected) => {
    expect(pathEscape(name)).toBe(expected);
  });
});

describe('contentDisposition', () => {
  it.each([
    ['document.pdf', false, "attachment; filename*=utf-8''document.pdf"],
    ['document.pdf', true, "inline; filename*=utf-8''document.pdf"],
    ['日本語.txt', true, "inline; filename*=utf-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt"],
    ['my file.txt', false, "attachment; filename*=utf-8''my%20file.txt"],
  ])('writes %j (inline %j) as %j', (name, inline, expected) => {
    expect(contentDisposition(name, inline)).toBe(expected);
  });
});
