// One interface for whoever takes the money (DESIGN §6). The shop asks a provider to create a payment
// and, whenever it needs the truth (a return, a notification), reads the payment back from it; it never
// trusts what a browser or a notification says about a payment.
import type { ReceiptLine } from './receipt.ts';

export type ProviderStatus = 'pending' | 'succeeded' | 'canceled';

export interface ProviderPayment {
  /** The provider's id of the payment. */
  ref: string;
  status: ProviderStatus;
  /** Kopecks, as the provider holds them. */
  amount: number;
  /** Where the shopper confirms the payment (the provider's page), while it is pending. */
  confirmationUrl: string | null;
  /** Why a payment was canceled, in the provider's words (insufficient_funds, 3d_secure_failed, …). */
  reason: string | null;
}

/**
 * The payment receipt's way of settling: full_payment, or full_prepayment when goods are handed over later
 * with a receipt of their own (marked goods, whose codes are known only at packing), or advance for a gift
 * certificate sold (issue 56: no goods named yet; each order it pays settles part of it).
 */
export type ReceiptMode = 'full_payment' | 'full_prepayment' | 'advance';

/** A receipt's registration at the register: pending while it works, succeeded or canceled after. */
export type ReceiptStatus = 'pending' | 'succeeded' | 'canceled';

export interface SettlementReceipt {
  /** The provider's id of the prepaid payment the receipt settles. */
  paymentRef: string;
  /** The same key again is the same receipt: one settlement per order, whatever retries happen. */
  idempotenceKey: string;
  /** The prepayment settled (kopecks): the lines' total. */
  amount: number;
  lines: ReceiptLine[];
  customer: { email: string; phone: string };
}

export interface RefundRequest {
  ref: string;
  /** Kopecks: the whole payment, or a return's part of it. */
  amount: number;
  idempotenceKey: string;
  receipt: ReceiptLine[];
  /** A prepayment not yet settled is returned as a prepayment; goods handed over, as a full payment. */
  receiptMode?: ReceiptMode;
  customer: { email: string; phone: string };
}

/** How a shopper pays online (orders.payment_method). */
export type OnlineMethod = 'card' | 'sbp' | 'sber_pay';

export interface CreatePayment {
  /** The same key for a retried creation: the provider answers with the payment it already made. */
  idempotenceKey: string;
  amount: number;
  description: string;
  /** The shop's path the shopper comes back to (/order-success/{code}/{hash}). */
  returnPath: string;
  method: OnlineMethod;
  /** The shopper's device: SberPay confirms in the bank's app on a phone, by a QR or a phone number on a desktop. */
  device: 'mobile' | 'desktop';
  orderCode: string;
  customer: { email: string; phone: string };
  receipt: ReceiptLine[];
  receiptMode: ReceiptMode;
}

export interface PaymentProvider {
  readonly name: 'test' | 'yookassa';
  create(request: CreatePayment): Promise<ProviderPayment>;
  /** The payment as the provider has it now; null when it does not know the id. */
  fetch(ref: string): Promise<ProviderPayment | null>;
  /**
   * Returns a succeeded payment's money, or part of it, to the card. The same key again is the same refund;
   * the receipt lines (54-FZ) are those returned. Resolves with the refund's id once the provider accepted it.
   */
  refund(request: RefundRequest): Promise<{ ref: string }>;
  /** Sends a settlement receipt (чек зачёта предоплаты) for a prepaid payment. */
  settle(request: SettlementReceipt): Promise<{ ref: string; status: ReceiptStatus }>;
  /** A sent receipt's registration now; null when the provider does not know it. */
  receiptStatus(ref: string): Promise<ReceiptStatus | null>;
}

/** The provider could not be reached or refused the request: the order stays, the shopper may try again. */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}
