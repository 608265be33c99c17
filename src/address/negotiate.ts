/**
 * Proactive negotiation between the form as JSON and the page for people (A6).
 *
 * @module
 */

/** A weight (RFC 9110 §12.4.2): `0` to `1` with at most three decimals. */
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Whether a request's `Accept` field selects the HTML page rather than the JSON form.
 *
 * The draft requires the JSON form for a request with no `Accept`, or one not including
 * `text/html`; so only an explicit `text/html` media range can select the page (a `text/*` or
 * `*\/*` never does). q-values are honoured: the page is chosen when `text/html` is acceptable
 * (q > 0) and preferred at least as much as `application/json`, both weighed by
 * {@link acceptWeights}. Everything else gets the JSON form; nothing is ever 406 (DESIGN.md §6).
 *
 * @param accept - the `Accept` field value, or `null` when absent.
 * @returns true for the HTML page, false for the JSON form.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.1
 */
export function prefersHtml(accept: string | null): boolean {
  if (accept === null) return false;
  const field = accept.toLowerCase();
  // Fast path for actors: without the literal text/html there is nothing to weigh.
  if (!field.includes("text/html")) return false;
  const { html, json } = acceptWeights(field);
  return html > 0 && html >= json;
}

/**
 * The weights an `Accept` field gives the two media types an address serves (RFC 9110 §12.5.1):
 * `html`, the highest q of a `text/html` range (-1 when there is none); `json`, the q of the most
 * specific range matching `application/json` (`application/json`, then `application/*`, then
 * `*\/*`; the highest among ranges equally specific; 0 when none matches), so that
 * `application/json;q=0, *\/*` makes JSON unacceptable. A range with a malformed weight is
 * ignored, as are media-type parameters other than `q`.
 *
 * @param field - the field value, lower-cased.
 * @returns the two weights, each from 0 to 1 (`html` -1 when absent).
 */
export function acceptWeights(field: string): { html: number; json: number } {
  let html = -1;
  let json = 0;
  let jsonRank = 0;
  for (const element of field.split(",")) {
    const parameters = element.split(";");
    const range = parameters[0]!.trim();
    let q = 1;
    let valid = true;
    for (let i = 1; i < parameters.length; i++) {
      const parameter = parameters[i]!;
      const equals = parameter.indexOf("=");
      if (equals === -1 || parameter.slice(0, equals).trim() !== "q") continue;
      const weight = parameter.slice(equals + 1).trim();
      if (QVALUE.test(weight)) q = Number(weight);
      else valid = false;
    }
    if (!valid) continue;
    if (range === "text/html") {
      html = Math.max(html, q);
      continue;
    }
    const rank = range === "application/json" ? 3 : range === "application/*" ? 2 : range === "*/*" ? 1 : 0;
    if (rank > jsonRank) {
      jsonRank = rank;
      json = q;
    } else if (rank !== 0 && rank === jsonRank) {
      json = Math.max(json, q);
    }
  }
  return { html, json };
}
