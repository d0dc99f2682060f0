import { AppError } from '../errors';
import { HOOK_EVENTS } from '../state/initial';
import type { Database } from '../state/schema';
import type { Store } from '../state/store';

/** The event keys hooks may be attached to: before_/after_ × save, copy, rename, upload, delete. */
export const EVENT_KEYS: readonly string[] = HOOK_EVENTS.flatMap((e) => [`before_${e}`, `after_${e}`]);

function assertEvent(event: string): void {
  if (!EVENT_KEYS.includes(event)) throw new AppError('bad_request', `unknown event ${event}; expected one of ${EVENT_KEYS.join(', ')}`);
}

/** The commands of every event (or of one), in run order. */
export function listEventCommands(db: Readonly<Database>, event?: string): Record<string, string[]> {
  if (event !== undefined) assertEvent(event);
  const out: Record<string, string[]> = {};
  for (const key of event === undefined ? EVENT_KEYS : [event]) out[key] = [...(db.settings.commands[key] ?? [])];
  return out;
}

/** Appends a command to an event (`cmds add`). */
export function addEventCommand(store: Store, event: string, command: string): Promise<string[]> {
  assertEvent(event);
  if (command.trim() === '') return Promise.reject(new AppError('bad_request', 'the command is empty'));
  return store.update((db) => {
    const list = (db.settings.commands[event] ??= []);
    list.push(command);
    return [...list];
  });
}

/** Removes the commands `start..end` (inclusive, 0-based) of an event (`cmds rm`). */
export function removeEventCommands(store: Store, event: string, range: { start: number; end: number }): Promise<string[]> {
  assertEvent(event);
  return store.update((db) => {
    const list = (db.settings.commands[event] ??= []);
    const { start, end } = range;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end >= list.length) {
      throw new AppError('bad_request', `index out of range: ${event} has ${list.length} commands`);
    }
    list.splice(start, end - start + 1);
    return [...list];
  });
}
