import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from "libphonenumber-js";

/**
 * Phone numbers as Balcão stores them: E.164 digits without the '+' ("5511912345678").
 * libphonenumber-js does the parsing (country codes, trunk prefixes, formatting); Brazil gets stricter
 * rules of its own because WhatsApp still uses the pre-2016 8-digit mobile form for many accounts, which
 * the library's full metadata calls invalid.
 */

const ALLOWED = /^[0-9+()\-.\s/]+$/;

/** A Brazilian national number: 2-digit area code (no zeros) + 8 digits, or + 9 + 8 digits for mobiles. */
function acceptableBrazilian(national: string): boolean {
  if (!/^[1-9][1-9]\d{8,9}$/.test(national)) return false;
  if (national.length === 11) return national[2] === "9";
  // 8-digit subscriber: landline (2-5) or a mobile in the old form (6-9); 0 and 1 are not subscriber numbers.
  return /^[2-9]$/.test(national[2]!);
}

function acceptable(p: PhoneNumber | undefined): p is PhoneNumber {
  if (!p) return false;
  if (p.countryCallingCode === "55") return acceptableBrazilian(p.nationalNumber);
  return p.isValid();
}

/**
 * Normalizes a typed number to E.164 digits, or null when it is not a phone number.
 * Accepts "+55 11 91234-5678", "5511912345678", "(11) 91234-5678", "011 91234-5678", "0055…", "+44 20…".
 * Without a '+', the number is read as national to `defaultCountry` first, then as international.
 */
export function normalizePhoneNumber(input: string, defaultCountry: CountryCode = "BR"): string | null {
  const text = input.trim();
  if (!text || text.length > 50 || !ALLOWED.test(text)) return null;
  let digits = text.replace(/\D/g, "");
  if (digits.length < 8 || digits.length > 17) return null;
  const international = text.startsWith("+") || digits.startsWith("00");
  if (international) {
    if (!text.startsWith("+")) digits = digits.slice(2);
    const p = parsePhoneNumberFromString(`+${digits}`);
    return acceptable(p) ? p.number.slice(1) : null;
  }
  const national = parsePhoneNumberFromString(digits, defaultCountry);
  if (acceptable(national)) return national.number.slice(1);
  const asInternational = parsePhoneNumberFromString(`+${digits}`);
  return acceptable(asInternational) ? asInternational.number.slice(1) : null;
}

/**
 * Both forms of a Brazilian mobile number, with and without the 9th digit, the given one first
 * ("5511912345678" ⇄ "551112345678"). Landlines, other countries and anything else: just the input.
 */
export function brazilNinthDigitVariants(digits: string): string[] {
  if (!/^55[1-9][1-9]\d{8,9}$/.test(digits)) return [digits];
  const area = digits.slice(2, 4);
  const subscriber = digits.slice(4);
  if (subscriber.length === 9 && subscriber[0] === "9" && /[6-9]/.test(subscriber[1]!)) return [digits, `55${area}${subscriber.slice(1)}`];
  if (subscriber.length === 8 && /[6-9]/.test(subscriber[0]!)) return [digits, `55${area}9${subscriber}`];
  return [digits];
}

/** Human form of stored digits ("55 11 91234-5678" style via libphonenumber), or the digits themselves. */
export function formatPhoneNumber(digits: string): string {
  if (!/^\d{8,15}$/.test(digits)) return digits;
  const p = parsePhoneNumberFromString(`+${digits}`);
  return p ? p.formatInternational() : digits;
}
