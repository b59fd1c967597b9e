/** The organiser's console (issue 21, decision 024): theme, texts, then the app. */
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { effectiveTheme, getThemeMode } from '../lib/theme';
import { ConsoleApp } from './console-app';
import { initConsoleI18n } from './i18n';
import '../ui/tokens.css';
import './console.css';

document.documentElement.dataset.theme = effectiveTheme(getThemeMode());
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 10_000 } } });
void initConsoleI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <QueryClientProvider client={queryClient}>
      <ConsoleApp />
    </QueryClientProvider>,
  );
});
