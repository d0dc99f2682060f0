/** The error screens of product.md §8, by the status of the failed request. */
export type ErrorKind = 'connection' | 'forbidden' | 'notFound' | 'internal';

// THE statuses with a text of their own (product.md §8); status 0 is the connection error.
const KINDS: ReadonlyMap<number, ErrorKind> = new Map([
  [0, 'connection'],
  [403, 'forbidden'],
  [404, 'notFound'],
]);

/** The error text's kind for a status: its own for those of the table, else internal. */
export function errorKind(status: number): ErrorKind {
  return KINDS.get(status) ?? 'internal';
}

/** The status of an error thrown by web/api (it carries one), or 500 for anything else. */
export function statusOf(error: unknown): number {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    if (typeof error.status === 'number') return error.status;
  }
  return 500;
}
