// The light theme's syntax colours: CodeMirror's default style has tones (#e40 for template
// strings) under the 4.5:1 contrast of WCAG AA on white; each colour here passes it on the editor's
// white and on the active line's tint. Dark uses one-dark.
// @lezer/highlight comes with @codemirror/language, which defines its tags.
import { HighlightStyle } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

export const lightHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.modifier, t.controlKeyword, t.operatorKeyword, t.definitionKeyword, t.moduleKeyword], color: '#8b1fa8' },
  { tag: [t.string, t.special(t.string), t.character, t.inserted], color: '#136c2e' },
  { tag: [t.regexp, t.escape], color: '#9a3a06' },
  { tag: [t.number, t.bool, t.null, t.atom, t.unit], color: '#0b57a4' },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: '#586474', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName))], color: '#0a4a8f' },
  { tag: [t.typeName, t.className, t.namespace, t.labelName], color: '#8a4608' },
  { tag: [t.definition(t.variableName), t.definition(t.propertyName)], color: '#1d3f7a' },
  { tag: [t.tagName, t.angleBracket], color: '#136c2e' },
  { tag: t.attributeName, color: '#6d36b0' },
  { tag: [t.meta, t.processingInstruction, t.documentMeta], color: '#586474' },
  { tag: t.heading, color: '#0b3d91', fontWeight: '700' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: [t.link, t.url], color: '#0b57a4', textDecoration: 'underline' },
  { tag: [t.invalid, t.deleted], color: '#b3261e' },
]);
