// Toasts (spec §2, §9): success, error, warning, info; 3000 ms by default; at most 5, oldest dropped.
import { atom } from 'nanostores';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
  duration: number;
}

export const TOAST_DEFAULT_DURATION = 3000;
export const TOAST_LIMIT = 5;

export const $toasts = atom<Toast[]>([]);
let nextId = 1;

export function showToast(message: string, type: ToastType = 'info', duration = TOAST_DEFAULT_DURATION): number {
  const toast: Toast = { id: nextId++, message, type, duration };
  $toasts.set([...$toasts.get(), toast].slice(-TOAST_LIMIT));
  return toast.id;
}

export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}
