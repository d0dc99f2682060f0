// The part of node:sqlite (Node >= 22.13, the embedded Node is 24) the index uses. The project's
// @types/node is 20's, which predates the module; this declaration goes when it is raised.
declare module 'node:sqlite' {
  type SQLInputValue = null | number | bigint | string | Uint8Array;
  type SQLOutputValue = null | number | bigint | string | Uint8Array;

  interface StatementResultingChanges {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  }

  export class StatementSync {
    all(...params: SQLInputValue[]): Record<string, SQLOutputValue>[];
    get(...params: SQLInputValue[]): Record<string, SQLOutputValue> | undefined;
    iterate(...params: SQLInputValue[]): IterableIterator<Record<string, SQLOutputValue>>;
    run(...params: SQLInputValue[]): StatementResultingChanges;
  }

  export class DatabaseSync {
    constructor(path: string, options?: { open?: boolean; readOnly?: boolean });
    close(): void;
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
  }
}
