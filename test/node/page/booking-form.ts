/**
 * A form for the page tests of issue 30 (item 10): required members of every kind, the formats
 * a browser has a control for, and a string whose only rule is a `pattern` with a
 * `description` (the one that showed a person "must be The time, HH:MM … (pattern ^(1[2-9]…$)").
 */
export const bookingPattern = "^(1[2-9]):[0-5][0-9]$";

export const bookingForm = {
  title: "booking",
  description: "A table booking at the example restaurant.",
  type: "object",
  additionalProperties: false,
  required: ["day", "time", "arrival", "email", "slot", "name", "guests", "room", "vegetarian", "notes", "extra"],
  properties: {
    day: { type: "string", format: "date" },
    time: { type: "string", format: "time" },
    arrival: { type: "string", format: "date-time" },
    email: { type: "string", format: "email", maxLength: 200 },
    website: { type: "string", format: "uri", maxLength: 200 },
    slot: { type: "string", description: "The time, HH:MM, from 12:00 to 19:59.", pattern: bookingPattern },
    name: { type: "string", maxLength: 100 },
    guests: { type: "integer", minimum: 1, maximum: 12 },
    room: { enum: ["garden", "hall"] },
    seating: { enum: ["window", "aisle"] },
    vegetarian: { type: "boolean" },
    notes: { type: "array", minItems: 1, maxItems: 3, items: { type: "string", maxLength: 100 } },
    extra: {},
  },
} as const;
