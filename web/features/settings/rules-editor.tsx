import type { RuleWire } from '@contract/user';
import { useTranslation } from 'react-i18next';
import { ignoreEnter } from '../../components/fields';
import { Icon } from '../../components/icon';

/** A new row (product.md §3): allow, a path (not a regular expression), empty. */
export function newRule(): RuleWire {
  return { allow: true, regex: false, path: '', regexp: { raw: '' } };
}

function RuleRow({ rule, n, onChange, onRemove }: { rule: RuleWire; n: number; onChange: (rule: RuleWire) => void; onRemove: () => void }) {
  const { t } = useTranslation();
  const text = rule.regex ? (rule.regexp?.raw ?? '') : rule.path;
  const setText = (value: string): void => onChange(rule.regex ? { ...rule, regexp: { raw: value } } : { ...rule, path: value });
  return (
    <fieldset className="rule">
      <legend className="visually-hidden">{t('rules.rule', { n })}</legend>
      <select className="input rule-access" aria-label={t('rules.access')} value={rule.allow ? 'allow' : 'deny'}
        onChange={(e) => onChange({ ...rule, allow: e.target.value === 'allow' })}>
        <option value="allow">{t('rules.allow')}</option>
        <option value="deny">{t('rules.deny')}</option>
      </select>
      <label className="checkbox rule-regex">
        <input type="checkbox" checked={rule.regex}
          onChange={(e) => onChange({ ...rule, regex: e.target.checked, regexp: rule.regexp ?? { raw: '' } })} />
        <span>{t('rules.regex')}</span>
      </label>
      <input className="input mono rule-text" dir="ltr" aria-label={rule.regex ? t('rules.expression') : t('rules.path')} value={text}
        placeholder={rule.regex ? '^/private/.*\\.txt$' : '/private'} onKeyDown={ignoreEnter} onChange={(e) => setText(e.target.value)} />
      <button type="button" className="icon-button rule-remove" aria-label={t('rules.remove')} title={t('rules.remove')} onClick={onRemove}>
        <Icon name="trash" />
      </button>
    </fieldset>
  );
}

interface RulesEditorProps {
  rules: readonly RuleWire[];
  onChange: (rules: RuleWire[]) => void;
  help: string;
}

/** The allow/deny rules of a user or of the whole instance: edit, add and remove rows. */
export function RulesEditor({ rules, onChange, help }: RulesEditorProps) {
  const { t } = useTranslation();
  const replace = (i: number, rule: RuleWire): void => onChange(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <fieldset className="fieldset rules">
      <legend>{t('rules.title')}</legend>
      <p className="field-help">{help}</p>
      {rules.length === 0 && <p className="rules-empty">{t('rules.empty')}</p>}
      {rules.map((rule, i) => (
        // Rows have no identity of their own; the index is their identity while editing.
        <RuleRow key={i} rule={rule} n={i + 1} onChange={(r) => replace(i, r)} onRemove={() => onChange(rules.filter((_, j) => j !== i))} />
      ))}
      <div>
        <button type="button" className="button button-small" onClick={() => onChange([...rules, newRule()])}>
          <Icon name="plus" />
          <span>{t('rules.add')}</span>
        </button>
      </div>
    </fieldset>
  );
}
