// The carrier's statuses as the order's (docs/delivery.md "Tracking"): forward along the flow, returned
// from the way, nothing for statuses that say nothing new.
import { describe, expect, it } from 'vitest';
import { canMove } from '~/features/orders/orders.ts';
import { boxberry, boxberryHost } from './boxberry.carrier.server.ts';
import { furthest } from './carrier.server.ts';
import { cdek, cdekHost } from './cdek.carrier.server.ts';

const codes = (...list: string[]) => list.map((code) => ({ code }));

describe('CDEK statuses as the order’s', () => {
  it('maps the depots’ statuses to shipped, in transit, at the pickup point, delivered and returned', () => {
    expect(cdek.statusOf('RECEIVED_AT_SHIPMENT_WAREHOUSE')).toBe('shipped');
    expect(cdek.statusOf('SENT_TO_RECIPIENT_CITY')).toBe('in_transit');
    expect(cdek.statusOf('TAKEN_BY_COURIER')).toBe('in_transit');
    expect(cdek.statusOf('ACCEPTED_AT_PICK_UP_POINT')).toBe('at_pickup_point');
    expect(cdek.statusOf('POSTOMAT_POSTED')).toBe('at_pickup_point');
    expect(cdek.statusOf('DELIVERED')).toBe('delivered');
    expect(cdek.statusOf('NOT_DELIVERED')).toBe('returned');
    expect(cdek.statusOf('CREATED')).toBeUndefined();
    expect(cdek.statusOf('INVALID')).toBeUndefined();
  });

  it('reads Boxberry’s statuses by their names', () => {
    expect(boxberry.statusOf('Загружен реестр ИМ')).toBeUndefined();
    expect(boxberry.statusOf('Принято к доставке')).toBe('shipped');
    expect(boxberry.statusOf('Передано на сортировку')).toBe('shipped');
    expect(boxberry.statusOf('Передан на доставку до пункта выдачи')).toBe('in_transit');
    expect(boxberry.statusOf('Отправлено в город назначения')).toBe('in_transit');
    expect(boxberry.statusOf('Поступило в пункт выдачи')).toBe('at_pickup_point');
    expect(boxberry.statusOf('Выдано')).toBe('delivered');
    expect(boxberry.statusOf('Возвращено в ИМ')).toBe('returned');
    expect(furthest(codes('Загружен реестр ИМ', 'Принято к доставке', 'Поступило в пункт выдачи'), boxberry)).toBe('at_pickup_point');
  });

  it('takes the furthest status, whatever order they came in; returned wins', () => {
    expect(furthest(codes('CREATED', 'ACCEPTED'), cdek)).toBeUndefined();
    expect(furthest(codes('ACCEPTED_AT_PICK_UP_POINT', 'RECEIVED_AT_SHIPMENT_WAREHOUSE', 'SENT_TO_RECIPIENT_CITY'), cdek)).toBe('at_pickup_point');
    expect(furthest(codes('RECEIVED_AT_SHIPMENT_WAREHOUSE', 'DELIVERED', 'TAKEN_BY_COURIER'), cdek)).toBe('delivered');
    expect(furthest(codes('ACCEPTED_AT_PICK_UP_POINT', 'NOT_DELIVERED'), cdek)).toBe('returned');
  });

  it('moves an order forward only: never back, never out of delivered, returned only from the way', () => {
    expect(canMove('processing', 'shipped')).toBe(true);
    expect(canMove('shipped', 'at_pickup_point')).toBe(true);
    expect(canMove('at_pickup_point', 'in_transit')).toBe(false);
    expect(canMove('at_pickup_point', 'at_pickup_point')).toBe(false);
    expect(canMove('delivered', 'returned')).toBe(false);
    expect(canMove('in_transit', 'returned')).toBe(true);
    expect(canMove('processing', 'returned')).toBe(false);
    expect(canMove('returned', 'delivered')).toBe(false);
    expect(canMove('in_transit', 'cancelled')).toBe(false);
    expect(canMove('ready_to_ship', 'cancelled')).toBe(true);
  });
});

describe('which host a carrier is set to (the console’s delivery settings)', () => {
  it('tells CDEK’s test host, its live host and any other address apart; Boxberry’s own host is live', () => {
    expect(cdekHost('https://api.edu.cdek.ru/v2')).toBe('test');
    expect(cdekHost('https://api.cdek.ru/v2')).toBe('live');
    expect(cdekHost('http://127.0.0.1:4000/v2')).toBe('other');
    // A look-alike is not CDEK's.
    expect(cdekHost('https://api.cdek.ru.example.com/v2')).toBe('other');
    expect(boxberryHost('https://api.boxberry.ru/json.php')).toBe('live');
    expect(boxberryHost('http://127.0.0.1:5000/json.php')).toBe('other');
  });
});
