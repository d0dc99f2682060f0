/** The error screens of product.md §8, by the status of the failed request. */
export type ErrorKind = 'connection' | 'forbidden' | 'notFound' | 'internal';

/** Status 0 is the connection error; 403 and 404 have their own texts; anything else is internal. */
export function errorKind(status: number): ErrorKind {
  if (status === 0) return 'connection';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  return 'internal';
}

/** The status of an error thrown by web/api (it carries one), or 500 for anything else. */
export function statusOf(error: unknown): number {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    if (typeof error.status === 'number') return error.status;
  }
  return 500;
}
