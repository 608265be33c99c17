/**
 * Deadlines of body reads without a timer each, for `readBody` on a Node message.
 *
 * A read sets its deadline when it starts and clears it when the body ends, which on a busy
 * address is nearly always long before it passes: a `setTimeout` set and cleared per act cost
 * about 1.3 µs of a 1 KiB act's 50 µs of server CPU on Node (issue 31). Deadlines of one
 * duration pass in the order they were set, so each duration keeps its deadlines in a queue
 * (a doubly linked list: setting appends, clearing unlinks) under one timer, set for the
 * earliest deadline; when it fires, the deadlines passed are called and it is set again for the
 * next one.
 *
 * @module
 */

/** A deadline set in a {@link DeadlineQueue}. */
export interface PendingDeadline {
  /** Clears the deadline: its callback is never called. Clearing it again does nothing. */
  clear(): void;
}

/** One deadline: a node of its queue's list, unlinked when it passes or is cleared. */
class Entry implements PendingDeadline {
  prev: Entry | null = null;
  next: Entry | null = null;
  linked = true;
  readonly queue: DeadlineQueue;
  /** When it passes, in `performance.now()` milliseconds. */
  readonly at: number;
  readonly onLate: () => void;

  constructor(queue: DeadlineQueue, at: number, onLate: () => void) {
    this.queue = queue;
    this.at = at;
    this.onLate = onLate;
  }

  clear(): void {
    if (this.linked) this.queue.unlink(this);
  }
}

/**
 * The deadlines of one duration, earliest first, and the one timer that calls them. The timer
 * is unref'd: a deadline never keeps a process alive by itself (a read still pending has its
 * connection open, which does).
 */
export class DeadlineQueue {
  readonly #ms: number;
  #head: Entry | null = null;
  #tail: Entry | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** @param ms - the duration of every deadline of this queue, in milliseconds, at most 2³¹ − 1. */
  constructor(ms: number) {
    this.#ms = ms;
  }

  /**
   * Sets a deadline `ms` from now.
   *
   * @param onLate - called once the deadline passed, unless cleared before; it must not throw.
   */
  set(onLate: () => void): PendingDeadline {
    const entry = new Entry(this, performance.now() + this.#ms, onLate);
    const tail = this.#tail;
    entry.prev = tail;
    if (tail === null) this.#head = entry;
    else tail.next = entry;
    this.#tail = entry;
    if (this.#timer === undefined) this.#arm(this.#ms);
    return entry;
  }

  /** Takes `entry` out of the list (the timer stays set; it finds the list shorter). */
  unlink(entry: Entry): void {
    entry.linked = false;
    const { prev, next } = entry;
    if (prev === null) this.#head = next;
    else prev.next = next;
    if (next === null) this.#tail = prev;
    else next.prev = prev;
    entry.prev = entry.next = null;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(this.#fire, Math.max(1, Math.ceil(ms)));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (let entry = this.#head; entry !== null && entry.at <= now; entry = this.#head) {
      this.unlink(entry);
      entry.onLate();
    }
    if (this.#head !== null) {
      if (this.#timer === undefined) this.#arm(this.#head.at - now);
    } else if (queues.get(this.#ms) === this) queues.delete(this.#ms);
  };
}

/** The queue of each duration in use: one set in the last `ms`, or with deadlines pending. */
const queues = new Map<number, DeadlineQueue>();

/**
 * The queue of deadlines `ms` milliseconds long, made on first use and dropped once its timer
 * fires with no deadline left (so that callers passing many durations keep no queue longer than
 * a timer each would).
 *
 * @param ms - a positive number of milliseconds, at most 2³¹ − 1 (the longest timer).
 */
export function deadlineQueue(ms: number): DeadlineQueue {
  let queue = queues.get(ms);
  if (queue === undefined) {
    queue = new DeadlineQueue(ms);
    queues.set(ms, queue);
  }
  return queue;
}
