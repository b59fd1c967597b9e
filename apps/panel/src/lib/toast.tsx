/**
 * Toasts (react-toastify, top-right, 5 s; spec section 9) loaded on first use: the library and the
 * styles it injects stay off the first screens (issue 9, LOGIN ≤ 120 KiB). `toast.success/error`
 * take react-toastify's arguments; a toast asked for before the container is up waits in
 * react-toastify's queue and shows as soon as `<Toasts>` has mounted it.
 */
import { lazy, Suspense, useSyncExternalStore, type ComponentProps } from 'react';
import type * as ToastifyModule from 'react-toastify';
import type { ToastContent, ToastOptions } from 'react-toastify';

type Toastify = typeof ToastifyModule;

let library: Promise<Toastify> | null = null;
const listeners = new Set<() => void>();

function load(): Promise<Toastify> {
  if (!library) {
    library = import('react-toastify');
    listeners.forEach((notify) => notify());
  }
  return library;
}

/** Shows a toast; the library is fetched on the first call. */
export const toast = {
  success: (content: ToastContent, options?: ToastOptions) => {
    void load().then((m) => m.toast.success(content, options));
  },
  error: (content: ToastContent, options?: ToastOptions) => {
    void load().then((m) => m.toast.error(content, options));
  },
};

const Container = lazy(() => load().then((m) => ({ default: m.ToastContainer })));
const subscribe = (notify: () => void) => {
  listeners.add(notify);
  return () => listeners.delete(notify);
};

/** react-toastify's container, mounted once the first toast was asked for. */
export function Toasts(props: ComponentProps<Toastify['ToastContainer']>) {
  const wanted = useSyncExternalStore(subscribe, () => library !== null);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Container {...props} />
    </Suspense>
  );
}
