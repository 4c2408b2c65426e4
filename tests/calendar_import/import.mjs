// Import an iCalendar feed (standard input) as Thunderbird's calendar does: with Mozilla's
// ical.js, the parser of Thunderbird's calendar. Prints what a calendar application would show
// (each event's times in UTC, summary, URL, description and alarms) as JSON; a feed that ical.js
// cannot read exits 1 with its error on standard error. Used by tests/reach/test_calendar_import.py.
//
//     node tests/calendar_import/import.mjs < feed.ics

import { readFileSync } from "node:fs";
import ICAL from "ical.js";

function utc(time) {
  // A floating time (no zone) has no instant: a calendar would place it in the reader's zone.
  if (time.isDate || time.zone === ICAL.Timezone.localTimezone) {
    throw new Error(`not an instant in time: ${time.toString()}`);
  }
  return time.toJSDate().toISOString();
}

function alarm(component) {
  const trigger = component.getFirstProperty("trigger");
  if (!trigger || !component.getFirstPropertyValue("action")) {
    throw new Error("an alarm without its ACTION or TRIGGER");
  }
  const value = trigger.getFirstValue();
  return {
    action: component.getFirstPropertyValue("action"),
    // RFC 5545 3.8.6.3: a duration before (negative) or after the start, or the end.
    related: trigger.getParameter("related") || "START",
    seconds: value instanceof ICAL.Duration ? value.toSeconds() : null,
    description: component.getFirstPropertyValue("description"),
  };
}

function main() {
  const text = readFileSync(0, "utf8");
  const calendar = new ICAL.Component(ICAL.parse(text));
  if (calendar.name !== "vcalendar") {
    throw new Error(`not a calendar: ${calendar.name}`);
  }
  const events = calendar.getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component);
    if (!event.uid || !component.getFirstPropertyValue("dtstamp") || !event.startDate) {
      throw new Error("an event without its UID, DTSTAMP or DTSTART");
    }
    const start = utc(event.startDate);
    const end = utc(event.endDate);
    if (end < start) {
      throw new Error(`event ${event.uid} ends before it starts`);
    }
    return {
      uid: event.uid,
      summary: event.summary,
      start,
      end,
      url: component.getFirstPropertyValue("url"),
      description: event.description,
      transparent: component.getFirstPropertyValue("transp") === "TRANSPARENT",
      alarms: component.getAllSubcomponents("valarm").map(alarm),
    };
  });
  const out = {
    version: calendar.getFirstPropertyValue("version"),
    prodid: calendar.getFirstPropertyValue("prodid"),
    name: calendar.getFirstPropertyValue("x-wr-calname"),
    events,
  };
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
}

try {
  main();
} catch (error) {
  process.stderr.write(`ical.js could not import the feed: ${error.message || error}\n`);
  process.exit(1);
}
