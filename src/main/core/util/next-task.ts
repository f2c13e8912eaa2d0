/**
 * Resolves in a later turn of the event loop (after its I/O and timers), not as a microtask.
 * Work that only awaits settled promises runs as one task, however many `await`s it has: a
 * turn's start (checkpoint, tool schemas, context budget, SDK client, first request) ran as one
 * 90 ms task on the event loop that also carries IPC, streamed text and terminal output. Awaiting
 * this between such pieces lets the loop serve everything else in between, for a few
 * microseconds when nothing else is waiting.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
