// The carrier's statuses as the order's (docs/delivery.md "Tracking"): forward along the flow, returned
// from the way, nothing for statuses that say nothing new.
import { describe, expect, it } from 'vitest';
import { canMove } from '~/features/orders/orders.ts';
import { furthest, orderStatusOf } from './delivery.shipments.server.ts';
import { carrierHost } from './delivery.ts';

const codes = (...list: string[]) => list.map((code) => ({ code }));

describe('CDEK statuses as the order’s', () => {
  it('maps the depots’ statuses to shipped, in transit, at the pickup point, delivered and returned', () => {
    expect(orderStatusOf('RECEIVED_AT_SHIPMENT_WAREHOUSE')).toBe('shipped');
    expect(orderStatusOf('SENT_TO_RECIPIENT_CITY')).toBe('in_transit');
    expect(orderStatusOf('TAKEN_BY_COURIER')).toBe('in_transit');
    expect(orderStatusOf('ACCEPTED_AT_PICK_UP_POINT')).toBe('at_pickup_point');
    expect(orderStatusOf('POSTOMAT_POSTED')).toBe('at_pickup_point');
    expect(orderStatusOf('DELIVERED')).toBe('delivered');
    expect(orderStatusOf('NOT_DELIVERED')).toBe('returned');
    expect(orderStatusOf('CREATED')).toBeUndefined();
    expect(orderStatusOf('INVALID')).toBeUndefined();
  });

  it('reads Boxberry’s statuses by their names', () => {
    expect(orderStatusOf('Загружен реестр ИМ', 'boxberry')).toBeUndefined();
    expect(orderStatusOf('Принято к доставке', 'boxberry')).toBe('shipped');
    expect(orderStatusOf('Передано на сортировку', 'boxberry')).toBe('shipped');
    expect(orderStatusOf('Передан на доставку до пункта выдачи', 'boxberry')).toBe('in_transit');
    expect(orderStatusOf('Отправлено в город назначения', 'boxberry')).toBe('in_transit');
    expect(orderStatusOf('Поступило в пункт выдачи', 'boxberry')).toBe('at_pickup_point');
    expect(orderStatusOf('Выдано', 'boxberry')).toBe('delivered');
    expect(orderStatusOf('Возвращено в ИМ', 'boxberry')).toBe('returned');
    expect(furthest(codes('Загружен реестр ИМ', 'Принято к доставке', 'Поступило в пункт выдачи'), 'boxberry')).toBe('at_pickup_point');
  });

  it('takes the furthest status, whatever order they came in; returned wins', () => {
    expect(furthest(codes('CREATED', 'ACCEPTED'))).toBeUndefined();
    expect(furthest(codes('ACCEPTED_AT_PICK_UP_POINT', 'RECEIVED_AT_SHIPMENT_WAREHOUSE', 'SENT_TO_RECIPIENT_CITY'))).toBe('at_pickup_point');
    expect(furthest(codes('RECEIVED_AT_SHIPMENT_WAREHOUSE', 'DELIVERED', 'TAKEN_BY_COURIER'))).toBe('delivered');
    expect(furthest(codes('ACCEPTED_AT_PICK_UP_POINT', 'NOT_DELIVERED'))).toBe('returned');
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
    expect(carrierHost('cdek', 'https://api.edu.cdek.ru/v2')).toBe('test');
    expect(carrierHost('cdek', 'https://api.cdek.ru/v2')).toBe('live');
    expect(carrierHost('cdek', 'http://127.0.0.1:4000/v2')).toBe('other');
    // A look-alike is not CDEK's.
    expect(carrierHost('cdek', 'https://api.cdek.ru.example.com/v2')).toBe('other');
    expect(carrierHost('boxberry', 'https://api.boxberry.ru/json.php')).toBe('live');
    expect(carrierHost('boxberry', 'http://127.0.0.1:5000/json.php')).toBe('other');
  });
});
