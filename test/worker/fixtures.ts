/**
 * The page bodies of `test/fixtures/page/`, as text (vite `?raw` imports work inside workerd).
 * See `test/fixtures/page/README.md` for what each invalid body pairs with.
 */
/// <reference types="vite/client" />

import invalidCodeFence from "../fixtures/page/invalid-code-fence.json?raw";
import invalidDuplicateMember from "../fixtures/page/invalid-duplicate-member.json?raw";
import invalidExtraMember from "../fixtures/page/invalid-extra-member.json?raw";
import invalidHttpLink from "../fixtures/page/invalid-http-link.json?raw";
import invalidOverlongTitle from "../fixtures/page/invalid-overlong-title.json?raw";
import invalidTrailingChatter from "../fixtures/page/invalid-trailing-chatter.json?raw";
import invalidTruncated from "../fixtures/page/invalid-truncated.json?raw";
import validAsciiEscapes from "../fixtures/page/valid-ascii-escapes.json?raw";
import validCompact from "../fixtures/page/valid-compact.json?raw";
import validRecipe from "../fixtures/page/valid-recipe.json?raw";
import validReleaseNotes from "../fixtures/page/valid-release-notes.json?raw";

/** Bodies that the page form accepts. */
export const valid = {
  "valid-release-notes.json": validReleaseNotes,
  "valid-recipe.json": validRecipe,
  "valid-compact.json": validCompact,
  "valid-ascii-escapes.json": validAsciiEscapes,
} as const;

/** Bodies that the page address must reject, each by name. */
export const invalid = {
  "invalid-duplicate-member.json": invalidDuplicateMember,
  "invalid-trailing-chatter.json": invalidTrailingChatter,
  "invalid-code-fence.json": invalidCodeFence,
  "invalid-http-link.json": invalidHttpLink,
  "invalid-extra-member.json": invalidExtraMember,
  "invalid-overlong-title.json": invalidOverlongTitle,
  "invalid-truncated.json": invalidTruncated,
} as const;
