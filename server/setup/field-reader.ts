/** A configuration file does not have the expected shape; the message names the field. */
export class ConfigFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigFormatError';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Typed reads from an imported JSON/YAML object. Keys match exactly, else case-insensitively:
 * filebrowser writes camelCase JSON, but its YAML export lower-cases Go field names
 * (`createuserdir`), and both must import. Missing or null fields take the fallback, as Go's
 * decoder leaves them at their zero value; a field of the wrong type is an error.
 */
export class FieldReader {
  private constructor(private readonly obj: Record<string, unknown>, readonly where: string) {}

  /** A reader over `value`, which must be an object. */
  static of(value: unknown, where: string): FieldReader {
    if (!isObject(value)) throw new ConfigFormatError(`${where} must be an object`);
    return new FieldReader(value, where);
  }

  private raw(key: string): unknown {
    if (Object.hasOwn(this.obj, key)) return this.obj[key];
    const lower = key.toLowerCase();
    const found = Object.keys(this.obj).find((k) => k.toLowerCase() === lower);
    return found === undefined ? undefined : this.obj[found];
  }

  private fail(key: string, expected: string): never {
    throw new ConfigFormatError(`${this.where}.${key} must be ${expected}`);
  }

  /** True when the key is present and not null. */
  has(key: string): boolean {
    const v = this.raw(key);
    return v !== undefined && v !== null;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.raw(key);
    if (v === undefined || v === null) return fallback;
    return typeof v === 'boolean' ? v : this.fail(key, 'true or false');
  }

  string(key: string, fallback: string): string {
    const v = this.raw(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'string') return v;
    return typeof v === 'number' ? String(v) : this.fail(key, 'a string');
  }

  uint(key: string, fallback: number): number {
    const v = this.raw(key);
    if (v === undefined || v === null) return fallback;
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : this.fail(key, 'a whole number');
  }

  strings(key: string, fallback: string[]): string[] {
    const v = this.raw(key);
    if (v === undefined || v === null) return fallback;
    if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v;
    return this.fail(key, 'a list of strings');
  }

  /** The list at `key` ([] when missing or null). */
  list(key: string): unknown[] {
    const v = this.raw(key);
    if (v === undefined || v === null) return [];
    return Array.isArray(v) ? v : this.fail(key, 'a list');
  }

  /** A reader over the object at `key`, or undefined when it is missing or null. */
  child(key: string): FieldReader | undefined {
    const v = this.raw(key);
    if (v === undefined || v === null) return undefined;
    return isObject(v) ? new FieldReader(v, `${this.where}.${key}`) : this.fail(key, 'an object');
  }

  /** Every key and value (for maps such as settings.commands). */
  entries(): [string, unknown][] {
    return Object.entries(this.obj);
  }
}
