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

export interface CreatePayment {
  /** The same key for a retried creation: the provider answers with the payment it already made. */
  idempotenceKey: string;
  amount: number;
  description: string;
  /** The shop's path the shopper comes back to (/order-success/{code}/{hash}). */
  returnPath: string;
  method: 'card' | 'sbp';
  orderCode: string;
  customer: { email: string; phone: string };
  receipt: ReceiptLine[];
}

export interface PaymentProvider {
  readonly name: 'test' | 'yookassa';
  create(request: CreatePayment): Promise<ProviderPayment>;
  /** The payment as the provider has it now; null when it does not know the id. */
  fetch(ref: string): Promise<ProviderPayment | null>;
  /**
   * Returns a succeeded payment's money to the card. The same key again is the same refund; the receipt
   * lines (54-FZ) are those of the payment. Resolves when the provider has accepted the refund.
   */
  refund(request: { ref: string; amount: number; idempotenceKey: string; receipt: ReceiptLine[]; customer: { email: string; phone: string } }): Promise<void>;
}

/** The provider could not be reached or refused the request: the order stays, the shopper may try again. */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}
