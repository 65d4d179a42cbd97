// The carriers the shop knows, in one list (docs/delivery.md "Adding a carrier"): a third carrier is one
// adapter module (carrier.server.ts's contract) and one line here, and its id in delivery.ts's CARRIER_IDS.
import { boxberry } from './boxberry.carrier.server.ts';
import type { Carrier } from './carrier.server.ts';
import { cdek } from './cdek.carrier.server.ts';
import type { CarrierId } from './delivery.ts';

/** Every carrier, in the order checkout prefers them: the first configured one's city codes are checkout's. */
const ALL: readonly Carrier[] = [cdek, boxberry];

/** A carrier by its id (an order's, a shipment's). */
export function carrierOf(id: CarrierId): Carrier {
  const found = ALL.find((c) => c.id === id);
  if (!found) throw new Error(`no adapter for the carrier ${id}`);
  return found;
}

/** The carriers the shop has accounts with. */
export function configuredCarriers(): Carrier[] {
  return ALL.filter((c) => c.configured());
}

/** Every carrier, configured or not (the console lists them all). */
export function allCarriers(): readonly Carrier[] {
  return ALL;
}

/** The configured carrier that can send a courier for the day's parcels, if any. */
export function intakeCarrier(): (Carrier & { intake: NonNullable<Carrier['intake']> }) | undefined {
  return configuredCarriers().find((c): c is Carrier & { intake: NonNullable<Carrier['intake']> } => c.intake !== undefined);
}
