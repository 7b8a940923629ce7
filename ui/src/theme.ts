import { Badge, Loader, Modal, Notification, createTheme, darken, defaultVariantColorsResolver, parseThemeColor, type VariantColorsResolver } from '@mantine/core';

/**
 * Tinted variants (light, outline, subtle: a colour's text on white or its pale tint) take their
 * text from the colour's darkest shade, darkened further: Mantine's own shades of green, yellow or
 * teal on a pale background stay under WCAG AA's 4.5:1, which axe-core checks in the browser tests.
 */
const TINTED = new Set(['light', 'outline', 'subtle']);

const readableVariants: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (!TINTED.has(input.variant)) return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return colors;
  const text = darken(input.theme.colors[parsed.color]![9], 0.4);
  return { ...colors, color: text, hoverColor: text, ...(input.variant === 'outline' && { border: `1px solid ${text}` }) };
};

/**
 * Mantine's defaults with contrast raised to WCAG AA for normal text: the primary colour's darker
 * shade under white button labels (blue 6 on white is 3.5:1), tinted variants as above, and dimmed
 * text one grey darker (theme.css).
 */
export const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  variantColorResolver: readableVariants,
  // Badges are tinted (dark text on a pale tint): a filled badge's white text fails AA on most colours.
  // A badge keeps its whole word: in a table squeezed to 390 px, Mantine's badge shrank to "A.".
  // Its words are written as read ("Busy or rejected", ui/src/format/statuses.ts), not shouted in capitals.
  // A notification's close button is an icon: it needs a name (axe: button-name, seen on the contact page).
  components: {
    Badge: Badge.extend({ defaultProps: { variant: 'light' }, styles: { root: { minWidth: 'max-content', textTransform: 'none' } } }),
    // A loader is named ("Loading the calls"): a name needs a role, and `status` tells it politely.
    Loader: Loader.extend({ defaultProps: { role: 'status' } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } }),
    // Every dialog's × is a button a screen reader can name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});
