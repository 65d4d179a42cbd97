// When a parcel arrives, as checkout shows it ("25–27 ноября") and the order keeps it (issue 38). A carrier
// quotes its transit in working days (CDEK's `period_min`/`period_max`); the shop adds its own handling
// days, and an order placed after the daily cut-off is handed over a day later. Days are counted in the
// shop's time zone (Moscow), Saturdays and Sundays are not working days; public holidays are not known
// here, so around the New Year a range can be a day or two early (docs/delivery.md).
import { formatDayRange } from '~/lib/format.ts';
import type { Locale } from '~/lib/i18n/index.ts';

/** A calendar date, `YYYY-MM-DD`, in the shop's time zone. */
export type IsoDate = string;

export interface ArrivalRange {
  from: IsoDate;
  to: IsoDate;
}

export interface ArrivalRules {
  /** Working days between the order and the hand-over to the carrier. */
  handlingDays: number;
  /** `HH:MM`: an order placed at or after it is handed over as if placed the next working day. */
  cutoff: string;
  timeZone: string;
}

/** The calendar date and time of day at `now` in a time zone. */
function localParts(now: Date, timeZone: string): { date: IsoDate; minutes: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts['year']}-${parts['month']}-${parts['day']}`, minutes: Number(parts['hour']) * 60 + Number(parts['minute']) };
}

const toDate = (iso: IsoDate) => new Date(`${iso}T00:00:00Z`);
const toIso = (date: Date): IsoDate => date.toISOString().slice(0, 10);
const isWeekend = (date: Date) => date.getUTCDay() === 0 || date.getUTCDay() === 6;

/** The date `days` working days after `iso` (the same date, moved to a working day, when `days` is 0). */
export function addWorkingDays(iso: IsoDate, days: number): IsoDate {
  const date = toDate(iso);
  while (isWeekend(date)) date.setUTCDate(date.getUTCDate() + 1);
  for (let left = days; left > 0;) {
    date.setUTCDate(date.getUTCDate() + 1);
    if (!isWeekend(date)) left--;
  }
  return toIso(date);
}

/** The day the shop hands an order placed at `now` to the carrier. */
export function handOverDate(now: Date, rules: ArrivalRules): IsoDate {
  const { date, minutes } = localParts(now, rules.timeZone);
  const [hours = 0, mins = 0] = rules.cutoff.split(':').map(Number);
  // An order placed after the cut-off starts the next working day; one placed at the weekend, on Monday.
  const start = isWeekend(toDate(date)) ? addWorkingDays(date, 0) : minutes >= hours * 60 + mins ? addWorkingDays(date, 1) : date;
  return addWorkingDays(start, rules.handlingDays);
}

/** The arrival range of a tariff's transit (working days) for an order placed at `now`. */
export function arrivalRange(now: Date, periodMin: number, periodMax: number, rules: ArrivalRules): ArrivalRange {
  const handOver = handOverDate(now, rules);
  const low = Math.max(0, Math.min(periodMin, periodMax));
  const high = Math.max(low, periodMax);
  return { from: addWorkingDays(handOver, low), to: addWorkingDays(handOver, high) };
}

/**
 * "25–27 ноября", "30 ноября – 2 декабря", "1 декабря" — ICU's own range format, the same in Node and the
 * browsers (across a year it names the years too). English: "25 – 27 November", with thin spaces.
 */
export function formatArrival(range: ArrivalRange, locale: Locale): string {
  return formatDayRange(range, locale);
}
