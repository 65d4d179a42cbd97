import { describe, expect, it } from 'vitest';
import { addWorkingDays, arrivalRange, formatArrival, handOverDate, type ArrivalRules } from './arrival.ts';

const MOSCOW: ArrivalRules = { handlingDays: 1, cutoff: '14:00', timeZone: 'Europe/Moscow' };
// 2026-11-24 is a Tuesday. Moscow is UTC+3.
const at = (moscow: string) => new Date(`${moscow}+03:00`);

describe('the hand-over day', () => {
  it('is the next working day for a morning order with one handling day', () => {
    expect(handOverDate(at('2026-11-24T10:00:00'), MOSCOW)).toBe('2026-11-25');
  });
  it('moves a day when the order comes at or after the cut-off, in Moscow time', () => {
    expect(handOverDate(at('2026-11-24T14:00:00'), MOSCOW)).toBe('2026-11-26');
    // 23:30 in Moscow is still Tuesday there, though it is 20:30 UTC.
    expect(handOverDate(at('2026-11-24T23:30:00'), MOSCOW)).toBe('2026-11-26');
    // 01:00 on Wednesday in Moscow is Tuesday 22:00 UTC: a morning order of Wednesday.
    expect(handOverDate(at('2026-11-25T01:00:00'), MOSCOW)).toBe('2026-11-26');
  });
  it('skips the weekend: a Friday evening order and a Saturday order start on Monday', () => {
    expect(handOverDate(at('2026-11-27T18:00:00'), MOSCOW)).toBe('2026-12-01');
    expect(handOverDate(at('2026-11-28T09:00:00'), MOSCOW)).toBe('2026-12-01');
    expect(handOverDate(at('2026-11-28T09:00:00'), { ...MOSCOW, handlingDays: 0 })).toBe('2026-11-30');
  });
});

describe('the arrival range', () => {
  it('adds the tariff’s working days to the hand-over day', () => {
    expect(arrivalRange(at('2026-11-24T10:00:00'), 2, 4, MOSCOW)).toEqual({ from: '2026-11-27', to: '2026-12-01' });
  });
  it('takes a reversed or negative period as the carrier meant it', () => {
    expect(arrivalRange(at('2026-11-24T10:00:00'), 3, 1, MOSCOW)).toEqual({ from: '2026-11-26', to: '2026-11-26' });
    expect(arrivalRange(at('2026-11-24T10:00:00'), -2, 0, MOSCOW)).toEqual({ from: '2026-11-25', to: '2026-11-25' });
  });
  it('counts working days across a month and a year', () => {
    expect(addWorkingDays('2026-12-30', 3)).toBe('2027-01-04');
  });
});

describe('the arrival as the shopper reads it', () => {
  it('names the month once within a month, both across months, one day alone, the years across a year', () => {
    expect(formatArrival({ from: '2026-11-25', to: '2026-11-27' }, 'ru')).toBe('25–27 ноября');
    expect(formatArrival({ from: '2026-11-30', to: '2026-12-02' }, 'ru')).toBe('30 ноября – 2 декабря');
    expect(formatArrival({ from: '2026-12-01', to: '2026-12-01' }, 'ru')).toBe('1 декабря');
    expect(formatArrival({ from: '2026-12-30', to: '2027-01-04' }, 'ru')).toBe('30 декабря 2026\u202fг. – 4 января 2027\u202fг.');
    expect(formatArrival({ from: '2026-11-25', to: '2026-11-27' }, 'en')).toBe('25\u2009–\u200927 November');
  });
});
