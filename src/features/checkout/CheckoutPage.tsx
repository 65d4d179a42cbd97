// /checkout (issue 9): contact, delivery and payment on one page, and a summary the server prices at
// every change. A guest checks out with name, e-mail and phone — five fields and two choices for one
// address (six with Russian Post's postcode) — and may create an account afterwards; a customer's
// contact and saved addresses are filled in. The page is reachable only with selected, available lines.
import { useClientStore } from '~/lib/client-store.ts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { z } from '~/lib/zod.ts';
import { FormError, FormField } from '~/components/ui/FormField.tsx';
import { PhoneField } from '~/components/ui/PhoneField.tsx';
import { fieldProps, shownIn, useSchemaForm } from '~/components/ui/schema-form.ts';
import { ApiError, applyFieldErrors } from '~/lib/api.client.ts';
import { formatPrice } from '~/lib/format.ts';
import { fill } from '~/lib/i18n/fill.ts';
import { pushEcommerce } from '~/features/analytics/analytics.client.ts';
import { $session, initSession } from '~/features/auth/auth.store.ts';
import { SummaryRow } from '~/features/cart/SummaryRow.tsx';
import { validateItemsCall } from '~/features/cart/cart.client.ts';
import { guestItems } from '~/features/cart/cart.store.ts';
import type { CartItem } from '~/features/cart/cart.ts';
import type { DeliveryOption } from '~/features/content/content.ts';
import { openAuth } from '~/features/frame/frame.store.ts';
import { PERSONAL_DATA_POLICY_URL } from '~/features/account/account.ts';
import { CarrierDelivery, offerTitle, type CarrierSelection } from '~/features/delivery/CarrierDelivery.tsx';
import type { MapTiles } from '~/features/delivery/PointDetails.tsx';
import type { CarrierCity, PointView } from '~/features/delivery/delivery.ts';
import { placeOrderCall, summaryCall } from './checkout.client.ts';
import { checkoutFormSchema, type CheckoutSummary } from './checkout.schema.ts';
import { newIdempotencyKey } from './checkout.ts';
import { useIslandMark } from '~/lib/islands.ts';
import { PromoCodeField } from '~/features/promotions/PromoCodeField.tsx';
import { GiftCodesField } from '~/features/promotions/GiftCodesField.tsx';
import { normalizeGiftCode } from '~/features/promotions/promotions.gifts.ts';
import { keepPromoCode, keptPromoCode } from '~/features/promotions/promotions.store.ts';

type FormInput = z.input<typeof checkoutFormSchema>;

/** The schema's ceiling for points and balance: "as much as the order may take". */
const SPEND_ALL = 100_000_000;
/** No lines yet: one empty list, so the carrier's offers are not asked for again on every render. */
const NO_LINES: readonly { id: number; quantity: number }[] = [];

export interface CheckoutAddress {
  id: number;
  label: string;
  city: string;
  address: string;
  postcode: string;
  is_default: boolean;
  /** The carrier's city for this address's city, when the shop delivers by a carrier and knows it. */
  carrier_city: CarrierCity | null;
}

/** Delivery by a carrier (issue 38): null when the shop has no carrier account (the fixed methods only). */
export interface CarrierProps {
  city: CarrierCity | null;
  point: PointView | null;
  tiles: MapTiles | null;
  /** The shop offers payment on delivery for carrier orders (issue 55): the summary says for which. */
  onDelivery: boolean;
}

interface Props {
  m: Record<string, string>;
  options: DeliveryOption[];
  /** A signed-in customer's contact and addresses, from the server's render; null for a guest. */
  customer: { name: string; email: string; phone: string } | null;
  addresses: CheckoutAddress[];
  deliveryInfoUrl: string;
  carriers: CarrierProps | null;
}

const FIELDS = [
  'contact.name',
  'contact.email',
  'contact.phone',
  'delivery.method',
  'delivery.city',
  'delivery.address',
  'delivery.postcode',
  'delivery.comment',
  'delivery.quote',
  'delivery.point',
  'payment',
] as const;

function Section({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <fieldset className="min-w-0 border-t border-line pt-6">
      <legend className="flex items-center gap-3 pr-3 font-display text-2xl font-500">
        <span className="grid h-7 w-7 place-items-center rounded-full bg-ink font-sans text-sm font-700 text-white" aria-hidden="true">
          {n}
        </span>
        {title}
      </legend>
      <div className="mt-5 grid gap-4">{children}</div>
    </fieldset>
  );
}

/** A service added to a delivery paid at the door, with its one line of explanation. */
function Service({ checked, onToggle, title, hint }: { checked: boolean; onToggle: () => void; title: string | undefined; hint: string | undefined }) {
  return (
    <label className="flex cursor-pointer items-start gap-3">
      <input type="checkbox" checked={checked} onChange={onToggle} className="mt-0.5 h-4 w-4 shrink-0 accent-ink" />
      <span>
        <span className="block font-600">{title}</span>
        <span className="block text-xs text-ink-soft">{hint}</span>
      </span>
    </label>
  );
}

function Choice({
  checked,
  children,
  ...input
}: React.InputHTMLAttributes<HTMLInputElement> & { children: React.ReactNode; ref?: React.Ref<HTMLInputElement> }) {
  return (
    <label
      className={`flex gap-3 border p-4 text-sm ${checked ? 'border-ink' : 'border-line hover:border-ink-soft'} ${input.disabled ? 'cursor-not-allowed text-ink-muted' : 'cursor-pointer'}`}
    >
      <input type="radio" checked={checked} className="mt-0.5 h-4 w-4 shrink-0 accent-ink" {...input} />
      <span className="min-w-0 flex-1">{children}</span>
    </label>
  );
}

export default function CheckoutPage({ m, options, customer, addresses, deliveryInfoUrl, carriers }: Props) {
  useIslandMark('checkout');
  const session = useClientStore($session, null);
  const shown = shownIn(m);
  const preferred = addresses.find((a) => a.is_default) ?? addresses[0];
  const form = useSchemaForm(checkoutFormSchema, {
    contact: { name: customer?.name ?? '', email: customer?.email ?? '', phone: customer?.phone ?? '' },
    delivery: {
      method: options[0]?.id ?? 'courier',
      city: preferred?.city ?? '',
      address: preferred?.address ?? '',
      postcode: preferred?.postcode ?? '',
      comment: '',
    },
    payment: 'card',
  } satisfies FormInput);
  const { register, handleSubmit, control, setError, setValue, watch } = form;
  const chosenMethod = watch('delivery.method');
  const payment = watch('payment');

  // The carrier's offer, when the shop delivers by a carrier and it answered; else the fixed methods.
  const [city, setCity] = useState<CarrierCity | null>(carriers?.city ?? preferred?.carrier_city ?? null);
  const [carrier, setCarrier] = useState<CarrierSelection>({ offer: null, point: null, fallback: null });
  const [requote, setRequote] = useState(0);
  const onCarrier = useCallback((selection: CarrierSelection) => setCarrier(selection), []);
  const fixed = !carriers || carrier.fallback !== null;
  const offer = fixed ? null : carrier.offer;
  const method = offer ? (offer.mode === 'courier' ? 'courier' : 'pickup') : chosenMethod;
  const option = options.find((o) => o.id === method) ?? options[0];

  const [items, setItems] = useState<CartItem[] | null>(null);
  const [summary, setSummary] = useState<CheckoutSummary | null>(null);
  // A refused placement (409: a promotion ended, a size sold out) asks for the summary again and keeps its message.
  const [repriced, setRepriced] = useState(0);
  const keptError = useRef<string | undefined>(undefined);
  const [useBonus, setUseBonus] = useState(false);
  const [useBalance, setUseBalance] = useState(false);
  // The promo code sent with the summary (issue 56); the field's text until the shopper applies it.
  const [promoCode, setPromoCode] = useState('');
  const [promoText, setPromoText] = useState('');
  // Gift certificates' codes (issue 56), normalized; the summary answers each.
  const [giftCodes, setGiftCodes] = useState<string[]>([]);
  // A code applied in the cart comes along (read after hydration: the server rendered the field empty).
  useEffect(() => {
    const kept = keptPromoCode();
    if (!kept) return;
    setPromoCode(kept);
    setPromoText(kept);
  }, []);
  const [addressId, setAddressId] = useState<number | null>(preferred?.id ?? null);
  const [comment, setComment] = useState(false);
  const [formError, setFormError] = useState<string | undefined>();
  const key = useRef<string>('');
  const reported = useRef(false);

  useEffect(() => {
    initSession();
    key.current = newIdempotencyKey();
  }, []);

  // A guest's selected lines, checked by the server: only available ones go to the checkout.
  useEffect(() => {
    if (customer) return;
    const chosen = guestItems().filter((l) => l.is_selected !== false);
    if (chosen.length === 0) {
      location.replace('/cart');
      return;
    }
    validateItemsCall(chosen.map((l) => ({ id: l.id, quantity: l.quantity, uid: l.uid, variant_code: l.variant_code, is_selected: true })))
      .then(({ items: lines }) => {
        const available = lines.filter((l) => l.is_available).map((l) => ({ id: l.id, quantity: l.quantity, variant_code: l.variant_code }));
        if (available.length === 0) location.replace('/cart');
        else setItems(available);
      })
      .catch((error: unknown) => setFormError(error instanceof ApiError ? error.message : m['error.network']));
  }, [customer, m]);

  // Logging in here reloads the page, which then renders with the customer's contact and addresses.
  useEffect(() => {
    if (!customer && session) location.reload();
  }, [customer, session]);

  useEffect(() => {
    if (!customer && items === null) return;
    const controller = new AbortController();
    summaryCall(
      {
        ...(customer ? {} : { items: items ?? [] }),
        delivery: { method, ...(offer ? { quote: offer.quote } : {}), ...(offer && carrier.point ? { point: carrier.point.code } : {}) },
        payment,
        // Asked for everything held; the server keeps it within what is held, the cap and the total.
        use_bonus: useBonus ? SPEND_ALL : 0,
        use_balance: useBalance ? SPEND_ALL : 0,
        ...(promoCode ? { promo_code: promoCode } : {}),
        ...(giftCodes.length > 0 ? { gift_codes: giftCodes } : {}),
      },
      controller.signal,
    )
      .then((s) => {
        // The checkout step, once, when the shopper first sees what they are buying.
        if (!reported.current) {
          reported.current = true;
          pushEcommerce(
            'checkout',
            s.lines.map((l) => ({ id: l.id, name: l.name, brand: l.brand, price: l.price, variant: l.variant, quantity: l.quantity })),
          );
        }
        setSummary(s);
        // The code goes on with the shopper only while it applies.
        if (s.promo_code) keepPromoCode(s.promo_code.applied ? s.promo_code.code : '');
        setFormError(keptError.current);
        keptError.current = undefined;
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.failure.status === 409 && summary === null) location.replace('/cart');
        else setFormError(error instanceof ApiError ? error.message : m['error.network']);
      });
    return () => controller.abort();
    // The summary follows what prices the order; `summary` is read only to tell the first load.
  }, [customer, items, method, offer, carrier.point, payment, useBonus, useBalance, promoCode, giftCodes, repriced, m]);

  // Payment on delivery, chosen and then not possible (another point, the fixed methods): back to the card.
  const codOffered = Boolean(carriers?.onDelivery);
  const codOpen = summary?.on_delivery.available ?? false;
  useEffect(() => {
    if (payment === 'on_delivery' && summary && !summary.on_delivery.available) setValue('payment', 'card');
  }, [payment, summary, setValue]);
  const onDelivery = payment === 'on_delivery' && codOpen;
  // Trying on and a partial buy-out: only paid at the door, where the carrier offers them for this point.
  const [tryOn, setTryOn] = useState(false);
  const [partial, setPartial] = useState(false);
  const canTryOn = onDelivery && Boolean(summary?.services.try_on);
  const canPartial = onDelivery && Boolean(summary?.services.partial);

  const pickAddress = (a: CheckoutAddress | null) => {
    setAddressId(a?.id ?? null);
    if (carriers && a?.carrier_city) setCity(a.carrier_city);
    const opts = { shouldValidate: Boolean(a), shouldDirty: true };
    setValue('delivery.city', a?.city ?? '', opts);
    setValue('delivery.address', a?.address ?? '', opts);
    setValue('delivery.postcode', a?.postcode ?? '', opts);
  };

  // By a carrier the city is the carrier's, and a point's address is the point's: the form holds them.
  useEffect(() => {
    if (!offer || !city) return;
    setValue('delivery.city', city.name);
    if (offer.mode !== 'courier') setValue('delivery.address', carrier.point?.address ?? '');
  }, [offer, city, carrier.point, setValue]);

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    if (carriers && !fixed && !offer) {
      setFormError(m['delivery.cityPick']);
      return;
    }
    if (offer && offer.mode !== 'courier' && !carrier.point) {
      setError('delivery.point', { type: 'required', message: m['delivery.choosePoint'] ?? '' });
      return;
    }
    const delivery = offer
      ? {
          ...values.delivery,
          method,
          quote: offer.quote,
          ...(carrier.point ? { point: carrier.point.code } : {}),
          try_on: canTryOn && tryOn,
          partial: canPartial && partial,
        }
      : { ...values.delivery, quote: undefined, point: undefined };
    try {
      const placed = await placeOrderCall(
        {
          ...values,
          delivery,
          ...(customer ? {} : { items }),
          use_bonus: summary?.bonus_used ?? 0,
          use_balance: summary?.balance_used ?? 0,
          // Only a code the summary applied: a refused one would refuse the order.
          ...(summary?.promo_code?.applied ? { promo_code: summary.promo_code.code } : {}),
          // What the shopper was shown off: a promotion that ends meanwhile refuses the order, not charges more.
          ...(summary ? { shown_promo_discount: summary.promo_discount + summary.delivery_discount } : {}),
          // Only certificates the summary applied: a refused one would refuse the order.
          ...(summary && summary.gift_certificates.some((g) => g.reason === null)
            ? { gift_codes: summary.gift_certificates.filter((g) => g.reason === null).map((g) => normalizeGiftCode(g.code)) }
            : {}),
        },
        key.current,
      );
      keepPromoCode('');
      location.assign(placed.payment_url ?? placed.result_url);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Refused before an order was made: the next press is a new attempt.
      if (error.failure.status === 409 || error.failure.status === 422) key.current = newIdempotencyKey();
      // A quote run out or edited: the offers are asked for again and the shopper chooses again.
      if (error.failure.errors['delivery.quote']) setRequote((n) => n + 1);
      else if (error.failure.status === 409) {
        keptError.current = error.message;
        setRepriced((n) => n + 1);
      }
      if (!applyFieldErrors(error, FIELDS, (field, message) => setError(field, { type: 'server', message }))) setFormError(error.message);
    }
  });

  const count = useMemo(() => summary?.lines.reduce((s, l) => s + l.quantity, 0) ?? 0, [summary]);
  const days = offer
    ? `${offerTitle(m, offer)} · ${offer.arrival}`
    : option
      ? fill(m['checkout.days'] ?? '', { min: option.days_min, max: option.days_max })
      : '';
  const isSubmitting = form.formState.isSubmitting;

  // The fixed methods and the saved addresses: the same with a carrier (shown in its fallback) and without.
  const fixedChoices = (
    <div className="grid gap-3" role="radiogroup" aria-label={m['checkout.delivery']}>
      {options.map((o) => (
        <Choice key={o.id} value={o.id} checked={method === o.id} {...register('delivery.method')}>
          <span className="flex flex-wrap justify-between gap-x-4 font-600">
            <span>{o.name}</span>
            <span className="tabular-nums" data-testid={`delivery-price-${o.id}`}>
              {summary && summary.delivery_price === 0 ? m['checkout.free'] : formatPrice(o.price)}
            </span>
          </span>
          <span className="mt-1 block text-xs text-ink-soft">
            {o.description} {fill(m['checkout.days'] ?? '', { min: o.days_min, max: o.days_max })}
          </span>
        </Choice>
      ))}
    </div>
  );
  const savedAddresses = addresses.length > 0 && (
    <div className="grid gap-2" role="radiogroup" aria-label={m['checkout.savedAddresses']}>
      <p className="text-xs font-600 uppercase tracking-wider text-ink-soft">{m['checkout.savedAddresses']}</p>
      {addresses.map((a) => (
        <Choice key={a.id} name="saved-address" checked={addressId === a.id} onChange={() => pickAddress(a)}>
          {a.label}
        </Choice>
      ))}
      <Choice name="saved-address" checked={addressId === null} onChange={() => pickAddress(null)}>
        {m['checkout.newAddress']}
      </Choice>
    </div>
  );
  const cityAndAddress = (
    <div className="grid gap-4 sm:grid-cols-[1fr_2fr]">
      <FormField label={m['checkout.city'] ?? ''} autoComplete="address-level2" {...fieldProps(form, 'delivery.city', shown)} />
      <FormField
        label={option?.address === 'point' ? (m['checkout.pointAddress'] ?? '') : (m['checkout.address'] ?? '')}
        autoComplete="street-address"
        {...fieldProps(form, 'delivery.address', shown)}
      />
    </div>
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-8 lg:grid-cols-[1fr_380px]" aria-label={m['checkout.title']}>
      <div className="grid min-w-0 gap-8">
        {!customer && (
          <p className="bg-paper-warm p-4 text-sm">
            {m['checkout.guest']}{' '}
            <button type="button" onClick={() => openAuth('login')} className="cursor-pointer font-600 underline underline-offset-4">
              {m['checkout.login']}
            </button>
          </p>
        )}
        <Section n={1} title={m['checkout.contact'] ?? ''}>
          <FormField label={m['checkout.name'] ?? ''} autoComplete="name" {...fieldProps(form, 'contact.name', shown)} />
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label={m['auth.email'] ?? ''}
              type="email"
              autoComplete="email"
              inputMode="email"
              hint={customer ? undefined : m['checkout.emailHint']}
              {...fieldProps(form, 'contact.email', shown)}
            />
            <PhoneField control={control} name="contact.phone" label={m['auth.phone'] ?? ''} shown={shown} />
          </div>
        </Section>

        <Section n={2} title={m['checkout.delivery'] ?? ''}>
          {carriers ? (
            <>
              {savedAddresses}
              <CarrierDelivery
                m={m}
                lines={summary?.lines ?? NO_LINES}
                city={city}
                onCity={setCity}
                initialPoint={carriers.point}
                tiles={carriers.tiles}
                requote={requote}
                onChange={onCarrier}
                pointError={form.formState.errors.delivery?.point?.message}
              >
                {fixedChoices}
              </CarrierDelivery>
              {fixed
                ? cityAndAddress
                : offer?.mode === 'courier' && (
                    <FormField label={m['checkout.address'] ?? ''} autoComplete="street-address" {...fieldProps(form, 'delivery.address', shown)} />
                  )}
            </>
          ) : (
            <>
              {fixedChoices}
              {savedAddresses}
              {cityAndAddress}
            </>
          )}
          {option?.address === 'postal' && (
            <FormField
              label={m['checkout.postcode'] ?? ''}
              autoComplete="postal-code"
              inputMode="numeric"
              maxLength={6}
              {...fieldProps(form, 'delivery.postcode', shown)}
            />
          )}
          {comment ? (
            <FormField label={m['checkout.comment'] ?? ''} autoComplete="off" {...fieldProps(form, 'delivery.comment', shown)} />
          ) : (
            <button type="button" onClick={() => setComment(true)} className="w-fit cursor-pointer text-sm text-ink-soft underline underline-offset-4">
              {m['checkout.addComment']}
            </button>
          )}
          <p className="text-xs text-ink-muted">
            {m['checkout.duties']}{' '}
            <a href={deliveryInfoUrl} className="underline underline-offset-4" target="_blank" rel="noopener">
              {m['checkout.dutiesMore']}
            </a>
          </p>
        </Section>

        <Section n={3} title={m['checkout.payment'] ?? ''}>
          <div className="grid gap-3 sm:grid-cols-2" role="radiogroup" aria-label={m['checkout.payment']}>
            <Choice value="card" checked={payment === 'card'} {...register('payment')}>
              <span className="block font-600">{m['checkout.card']}</span>
              <span className="mt-1 block text-xs text-ink-soft">{m['checkout.cardSchemes']}</span>
            </Choice>
            <Choice value="sbp" checked={payment === 'sbp'} {...register('payment')}>
              <span className="block font-600">{m['checkout.sbp']}</span>
              <span className="mt-1 block text-xs text-ink-soft">{m['checkout.sbpHint']}</span>
            </Choice>
            <Choice value="sber_pay" checked={payment === 'sber_pay'} {...register('payment')}>
              <span className="block font-600">{m['checkout.sberPay']}</span>
              <span className="mt-1 block text-xs text-ink-soft">{m['checkout.sberPayHint']}</span>
            </Choice>
            {codOffered && (
              <Choice value="on_delivery" checked={payment === 'on_delivery'} disabled={!codOpen} {...register('payment')}>
                <span className="block font-600">{m['checkout.onDelivery']}</span>
                <span className="mt-1 block text-xs text-ink-soft" data-testid="checkout-cod-note">
                  {summary?.on_delivery.reason ?? m['checkout.onDeliveryHint']}
                </span>
              </Choice>
            )}
          </div>
          {(canTryOn || canPartial) && (
            <div className="grid gap-3 text-sm" data-testid="checkout-services">
              {canTryOn && <Service checked={tryOn} onToggle={() => setTryOn((v) => !v)} title={m['checkout.tryOn']} hint={m['checkout.tryOnHint']} />}
              {canPartial && (
                <Service checked={partial} onToggle={() => setPartial((v) => !v)} title={m['checkout.partial']} hint={m['checkout.partialHint']} />
              )}
            </div>
          )}
        </Section>
      </div>

      <aside className="h-fit border border-line p-5 lg:sticky lg:top-28" aria-label={m['checkout.summary']}>
        <h2 className="font-display text-2xl font-500">{m['checkout.summary']}</h2>
        {!summary ? (
          <p className="mt-4 text-sm text-ink-muted">{m['checkout.loading']}</p>
        ) : (
          <>
            <ul className="mt-4 divide-y divide-line border-y border-line">
              {summary.lines.map((l) => (
                <li key={l.variant_code} className="flex gap-3 py-3 text-sm">
                  {l.image && <img src={l.image} alt="" width={48} height={64} className="h-16 w-12 shrink-0 bg-paper-warm object-cover" />}
                  <div className="min-w-0 flex-1">
                    <p className="text-xs font-700 uppercase tracking-wide">{l.brand}</p>
                    <p className="truncate">{l.name}</p>
                    <p className="text-xs text-ink-soft">{fill(m['checkout.lineSize'] ?? '', { size: l.variant, quantity: l.quantity })}</p>
                  </div>
                  <p className="shrink-0 font-600 tabular-nums">{formatPrice(l.price * l.quantity)}</p>
                </li>
              ))}
            </ul>
            {customer && (summary.bonus_available > 0 || summary.balance_available > 0) && (
              <div className="mt-4 grid gap-2 text-sm">
                {summary.bonus_available > 0 && (
                  <label className="flex cursor-pointer items-start gap-2">
                    <input type="checkbox" checked={useBonus} onChange={() => setUseBonus((v) => !v)} className="mt-0.5 h-4 w-4 accent-ink" />
                    <span>
                      {fill(m['checkout.useBonus'] ?? '', { amount: formatPrice(Math.min(summary.bonus_available, summary.bonus_cap)) })}
                      <span className="block text-xs text-ink-muted">{m['checkout.bonusCap']}</span>
                    </span>
                  </label>
                )}
                {summary.balance_available > 0 && (
                  <label className="flex cursor-pointer items-start gap-2">
                    <input type="checkbox" checked={useBalance} onChange={() => setUseBalance((v) => !v)} className="mt-0.5 h-4 w-4 accent-ink" />
                    <span>{fill(m['checkout.useBalance'] ?? '', { amount: formatPrice(summary.balance_available) })}</span>
                  </label>
                )}
              </div>
            )}
            <dl className="mt-4 space-y-2 text-sm">
              <PromoCodeField
                m={m}
                text={promoText}
                onText={setPromoText}
                answer={summary.promo_code}
                onApply={() => setPromoCode(promoText.trim())}
                onRemove={() => {
                  setPromoCode('');
                  setPromoText('');
                  keepPromoCode('');
                }}
              />
              <GiftCodesField
                m={m}
                answers={summary.gift_certificates}
                onAdd={(code) => setGiftCodes((list) => [...new Set([...list, normalizeGiftCode(code)])])}
                onRemove={(code) => setGiftCodes((list) => list.filter((c) => c !== code))}
              />
              <SummaryRow label={fill(m['cart.items'] ?? '', { count })} value={formatPrice(summary.items_total + summary.discount_total)} />
              {summary.discount_total > 0 && <SummaryRow label={m['cart.discount']} value={`−${formatPrice(summary.discount_total)}`} tone="text-accent" />}
              {summary.promotions
                .filter((p) => p.class !== 'delivery')
                .map((p) => (
                  <SummaryRow key={p.name} label={p.name} value={`−${formatPrice(p.amount)}`} tone="text-accent" />
                ))}
              <SummaryRow
                label={
                  <>
                    {m['checkout.deliveryLine']}
                    <span className="block text-xs text-ink-muted">{days}</span>
                  </>
                }
                value={summary.delivery_price === 0 ? m['checkout.free'] : formatPrice(summary.delivery_price)}
              />
              {summary.bonus_used > 0 && <SummaryRow label={m['checkout.bonusLine']} value={`−${formatPrice(summary.bonus_used)}`} />}
              {summary.balance_used > 0 && <SummaryRow label={m['checkout.balanceLine']} value={`−${formatPrice(summary.balance_used)}`} />}
              {summary.certificate_used > 0 && <SummaryRow label={m['gift.paidBy']} value={`−${formatPrice(summary.certificate_used)}`} />}
              {summary.cod_fee > 0 && <SummaryRow label={m['checkout.codFee']} value={formatPrice(summary.cod_fee)} />}
              <SummaryRow
                label={onDelivery ? m['checkout.codTotal'] : m['checkout.total']}
                value={formatPrice(summary.total)}
                tone="border-t border-line pt-3 text-base font-700"
                testId="checkout-total"
              />
            </dl>
          </>
        )}
        <div className="mt-5 grid gap-3">
          <FormError message={formError} />
          <button type="submit" disabled={!summary || isSubmitting} className="btn-primary w-full disabled:opacity-60">
            {isSubmitting
              ? m['checkout.placing']
              : summary?.total === 0 || onDelivery
                ? m[onDelivery ? 'checkout.placeCod' : 'checkout.place']
                : fill(m['checkout.pay'] ?? '', { total: formatPrice(summary?.total ?? 0) })}
          </button>
          <p className="text-xs text-ink-muted">{m[onDelivery ? 'checkout.afterCod' : 'checkout.afterPay']}</p>
          <p className="text-xs text-ink-muted" data-testid="checkout-consent">
            {(m['checkout.consent'] ?? '').split('{link}')[0]}
            <a href={PERSONAL_DATA_POLICY_URL} target="_blank" rel="noopener" className="underline underline-offset-2">
              {m['checkout.consentLink']}
            </a>
            {(m['checkout.consent'] ?? '').split('{link}')[1]}
          </p>
        </div>
      </aside>
    </form>
  );
}
