// The console's delivery settings (/ops/delivery, issue 54): each carrier's setup as an owner reads it, and
// the check asked again at once ("Проверить сейчас"), audited.
import { z } from '~/lib/zod.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { allCarriers, carrierOf } from './carriers.server.ts';
import { CARRIER_IDS } from './delivery.ts';
import { carrierSetups, checkCarriers, type CarrierSetup } from './delivery.setup.server.ts';

export const deliveryActionSchema = z.object({ action: z.literal('check') });

export interface DeliverySettingsView {
  carriers: CarrierSetup[];
  /** The address a carrier's status pushes are (to be) subscribed to (CDEK's webhook), its token hidden. */
  webhookUrl: string | null;
}

export async function deliverySettingsView(): Promise<DeliverySettingsView> {
  const url = allCarriers()
    .map((c) => c.pushUrl?.())
    .find(Boolean);
  return { carriers: await carrierSetups(), webhookUrl: url ? url.replace(/token=[^&]+/, 'token=…') : null };
}

/** Checks every configured carrier now; the confirmation's key. */
export async function checkCarriersNow(actor: Actor): Promise<string> {
  const asked = await checkCarriers(true);
  await audit(actor, 'delivery.check', 'delivery', 'carriers', null, { carriers: asked });
  return 'checked';
}

/** Whether the shop can refuse a parcel of this carrier before it is handed over (issue 55: CDEK's refusal). */
export function canRefuse(carrierId: string): boolean {
  const id = CARRIER_IDS.find((c) => c === carrierId);
  return id !== undefined && carrierOf(id).configured() && carrierOf(id).refuse !== undefined;
}
