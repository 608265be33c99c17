/**
 * `date`, `time`, `date-time` (RFC 3339 §5.6: full-date, full-time, date-time; `T` and `Z`
 * case-insensitive; a leap second only at 23:59:60 UTC) and `duration` (RFC 3339 Appendix A).
 *
 * @module
 */
import type { FormatCheck } from "./format-check.ts";

export const date: FormatCheck = {
  name: "date",
  fn: "format_date",
  source: String.raw`const F_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
function format_date(s) {
  const m = F_DATE.exec(s);
  if (m === null) return false;
  const year = +m[1], month = +m[2], day = +m[3];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}`,
};

export const time: FormatCheck = {
  name: "time",
  fn: "format_time",
  source: String.raw`const F_TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;
function format_time(s) {
  const m = F_TIME.exec(s);
  if (m === null) return false;
  const hour = +m[1], minute = +m[2], second = +m[3];
  if (hour > 23 || minute > 59 || second > 60) return false;
  let offset = 0;
  if (m[4] !== undefined) {
    if (+m[5] > 23 || +m[6] > 59) return false;
    offset = (m[4] === "-" ? -1 : 1) * (+m[5] * 60 + +m[6]);
  }
  return second < 60 || (((hour * 60 + minute - offset) % 1440) + 1440) % 1440 === 1439;
}`,
};

export const dateTime: FormatCheck = {
  name: "date-time",
  fn: "format_date_time",
  uses: [date, time],
  source: String.raw`function format_date_time(s) {
  return (s[10] === "T" || s[10] === "t") && format_date(s.slice(0, 10)) && format_time(s.slice(11));
}`,
};

export const duration: FormatCheck = {
  name: "duration",
  fn: "format_duration",
  source: String.raw`const F_DURATION = /^P(?:(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)|[0-9]+W)$/;
function format_duration(s) {
  return F_DURATION.test(s);
}`,
};
