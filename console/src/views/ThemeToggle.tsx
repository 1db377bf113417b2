import { useEffect, useState } from 'react';

type Theme = 'light' | 'dark';
const STORE = 'brainql.theme';

function initial(): Theme {
  const saved = localStorage.getItem(STORE);
  if (saved === 'light' || saved === 'dark') return saved;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Light or dark: the system's preference until the person chooses (kept for next time). */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(initial);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const other: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      aria-label={`Switch to the ${other} theme`}
      onClick={() => {
        localStorage.setItem(STORE, other);
        setTheme(other);
      }}
    >
      {theme === 'dark' ? 'Light' : 'Dark'}
    </button>
  );
}
