/**
 * The network a client address belongs to, as a rate-limit key: an IPv4 address is its own
 * key; an IPv6 address is keyed by its network prefix, a /64 unless set otherwise, since one
 * subscriber commonly holds a whole /64 (RFC 6177, RFC 7934) and could otherwise spend 2^64
 * budgets. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, RFC 4291 §2.5.5.2) is the IPv4
 * address it maps.
 *
 * @module
 */

/** The IPv6 prefix length of a client's key unless set: 64 bits. */
export const DEFAULT_IPV6_PREFIX_LENGTH = 64;

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/**
 * The rate-limit key of a client address.
 *
 * @param address - an IPv4 or IPv6 address as a runtime or `X-Forwarded-For` gives it (an IPv6
 *   address may come in brackets, with a zone `%eth0`); anything else (`unknown`, a name) is
 *   returned as it is.
 * @param ipv6PrefixLength - bits of an IPv6 address that make the key, 0 to 128.
 * @returns the IPv4 address; or the IPv6 network in RFC 5952 text with its length
 *   (`2001:db8:0:1::/64`).
 * @throws {RangeError} when `ipv6PrefixLength` is not an integer from 0 to 128.
 * @example
 * ```ts
 * networkKey("2001:db8::1:2:3:4", 64); // "2001:db8::/64"
 * networkKey("::ffff:192.0.2.7", 64); // "192.0.2.7"
 * ```
 */
export function networkKey(address: string, ipv6PrefixLength: number = DEFAULT_IPV6_PREFIX_LENGTH): string {
  if (!Number.isInteger(ipv6PrefixLength) || ipv6PrefixLength < 0 || ipv6PrefixLength > 128) {
    throw new RangeError(`the IPv6 prefix length must be an integer from 0 to 128, got ${ipv6PrefixLength}`);
  }
  if (!address.includes(":")) return address;
  const groups = ipv6Groups(address);
  if (groups === null) return address;
  // ::ffff:0:0/96, IPv4-mapped: the IPv4 client it stands for.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  for (let i = 0; i < 8; i++) {
    const kept = Math.min(Math.max(ipv6PrefixLength - i * 16, 0), 16);
    groups[i] = groups[i]! & ((0xffff << (16 - kept)) & 0xffff);
  }
  return `${ipv6Text(groups)}/${ipv6PrefixLength}`;
}

/** The eight 16-bit groups of an IPv6 address in text (RFC 4291 §2.2), or `null`. */
function ipv6Groups(text: string): number[] | null {
  let address = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string): number[] | null => {
    if (half === "") return [];
    const parts = half.split(":");
    const groups: number[] = [];
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1 && part.includes(".")) {
        if (!IPV4.test(part)) return null;
        const [a, b, c, d] = part.split(".").map(Number) as [number, number, number, number];
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (HEX_GROUP.test(part)) {
        groups.push(Number.parseInt(part, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (head === null || tail === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  // An IPv4 part may only end the address.
  if (halves[0]!.includes(".")) return null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** RFC 5952 text of eight groups: lower case, no leading zeros, the longest run of two or more zero groups (the first of equals) as `::`. */
function ipv6Text(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}
