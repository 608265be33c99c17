/**
 * The perform stage (see `stages.ts`): a verified act handed to its handler, the consequence
 * encoded as the JSON text every door sends (R1). Both doors call {@link performAct}, so a
 * declined act and a throwing handler mean the same through either.
 *
 * @module
 */
import { ActDeclined, encodeConsequence } from "./act.ts";

/**
 * An act its handler did not perform: it declined (`ActDeclined`, with its status), or it threw
 * anything else (a fault of the server, logged here with `console.error`).
 */
export type Unperformed = { readonly code: "declined"; readonly declined: ActDeclined } | { readonly code: "fault" };

/** The one fault outcome (frozen: a fault allocates nothing). */
const FAULT: Unperformed = Object.freeze({ code: "fault" });

/**
 * Performs a verified act: calls `act` with the value and the door's context, and encodes what
 * it returns ({@link encodeConsequence}).
 *
 * @param act - the address's act handler.
 * @param value - the value that passed verification (never anything else).
 * @param context - what the handler receives besides the value (`ActContext`).
 * @param subject - what the handler serves, as a fault's message names it: `address`, `tool`.
 * @param name - its name (the form's, or the tool's).
 * @returns the consequence's JSON text, or the {@link Unperformed} outcome. Never rejects.
 */
export async function performAct<Value, Context>(
  act: (value: Value, context: Context) => unknown,
  value: Value,
  context: Context,
  subject: string,
  name: string,
): Promise<string | Unperformed> {
  try {
    return encodeConsequence(await act(value, context));
  } catch (error) {
    if (error instanceof ActDeclined) return { code: "declined", declined: error };
    console.error(`gpt-address: the act handler of the ${subject} "${name}" threw`, error);
    return FAULT;
  }
}
