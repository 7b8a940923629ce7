import { describe, expect, test } from 'vitest';
import { loadLabelledSet, scoreOptOut } from '../../../../bench/opt-out.ts';
import { detectOptOut, type TranscriptTurn } from './opt-out-detector.ts';

const caller = (text: string): TranscriptTurn => ({ role: 'user', text });
const assistant = (text: string): TranscriptTurn => ({ role: 'assistant', text });

describe('detectOptOut', () => {
  test.each([
    'Stop calling me.',
    'uh yeah can you, um, take me off your list please',
    'Put me on your do not call list.',
    'lose my number',
    "I'm on the national do-not-call registry.",
    'Never call here again.',
    'unsubscribe me',
    'Stop. Calling. Me.',
    "Um, I'd really appreciate it if you didn't call me anymore.",
    'Quit calling me, Mike.',
  ])('counts the caller saying %j', (text) => {
    expect(detectOptOut([assistant('Hi, do you have a minute?'), caller(text)], 'en').optOut).toBe(true);
  });

  test.each([
    "Don't stop calling me, I like the updates.",
    "I'm not asking you to stop, just call later in the week.",
    'stop, let me think',
    'please call me back tomorrow',
    'Can you remove the item from my order?',
    'Can someone take me off hold?',
    'Can you call me later?',
    'stop talking for a second, I need to grab a pen',
    "Don't call me before 5, I'm at work.",
    'Call my wife instead.',
    "Don't call me sir, call me Dave.",
    "don't call back until next month",
    "I'm not interested.",
  ])('does not count the near miss %j', (text) => {
    expect(detectOptOut([assistant('Hi, do you have a minute?'), caller(text)], 'en')).toEqual({
      optOut: false,
      phrase: null,
      language: null,
    });
  });

  test('does not count the assistant offering or confirming a removal', () => {
    const transcript = [
      assistant('Would you like us to stop calling? We will remove you from our list.'),
      caller('what time is the appointment'),
      assistant("Okay, we'll make sure you're not called again."),
      caller('okay bye'),
    ];
    expect(detectOptOut(transcript, 'en').optOut).toBe(false);
  });

  test('counts a yes to the assistant asking whether to stop calling', () => {
    const transcript = [assistant('I understand. Do you want us to stop calling you?'), caller('yes please')];
    expect(detectOptOut(transcript, 'en')).toEqual({ optOut: true, phrase: 'yes please', language: 'en' });
  });

  test('does not count a yes that is taken back, or a yes to another question', () => {
    expect(detectOptOut([assistant('Should I take you off our list?'), caller('yes... wait, no. Keep me on.')]).optOut).toBe(
      false,
    );
    expect(
      detectOptOut([assistant('We can stop calling. Or, would you like to hear the new rates?'), caller('yes')]).optOut,
    ).toBe(false);
    expect(detectOptOut([assistant('Would you like to confirm your appointment?'), caller('yes')]).optOut).toBe(false);
  });

  test('reads the language from a regional tag and falls back to every language without one', () => {
    const spanish = [caller('Por favor, no me llamen más.')];
    expect(detectOptOut(spanish, 'es-MX')).toMatchObject({ optOut: true, language: 'es' });
    expect(detectOptOut(spanish, null)).toMatchObject({ optOut: true, language: 'es' });
    expect(detectOptOut([caller("Arrêtez de m'appeler !")], 'fr-FR')).toMatchObject({ optOut: true, language: 'fr' });
    expect(detectOptOut([caller('Rufen Sie mich nie wieder an.')])).toMatchObject({ optOut: true, language: 'de' });
    expect(detectOptOut([caller("N'arrêtez pas de m'appeler.")], 'fr').optOut).toBe(false);
  });
});

describe('the labelled set', () => {
  const endings = loadLabelledSet();

  test('holds at least 140 English, 50 Spanish and 50 French endings', () => {
    const count = (language: string) => endings.filter((ending) => ending.language === language).length;
    expect(count('en')).toBeGreaterThanOrEqual(140);
    expect(count('es')).toBeGreaterThanOrEqual(50);
    expect(count('fr')).toBeGreaterThanOrEqual(50);
  });

  test('English recall is at least 0.95 at precision at least 0.9', () => {
    const score = scoreOptOut(endings.filter((ending) => ending.language === 'en'));
    expect(score.recall, `false negatives: ${score.falseNegatives.join(' ')}`).toBeGreaterThanOrEqual(0.95);
    expect(score.precision, `false positives: ${score.falsePositives.join(' ')}`).toBeGreaterThanOrEqual(0.9);
  });
});
