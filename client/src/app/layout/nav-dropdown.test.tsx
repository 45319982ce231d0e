import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DROPDOWN_CLOSE_DELAY_MS, NavDropdown } from './nav-dropdown';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <p>Outside</p>
      <NavDropdown label="Platforms" open={open} onOpenChange={setOpen} openOnHover>
        <a href="/platforms/hire">Hire</a>
        <a href="/platforms/campus">Campus</a>
        <a href="/platforms/career">Career</a>
      </NavDropdown>
    </div>
  );
}

const button = () => screen.getByRole('button', { name: 'Platforms' });
const wrapper = () => button().parentElement as HTMLElement;

describe('NavDropdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens on hover and closes exactly 200 ms after the pointer leaves', () => {
    render(<Harness />);
    expect(button()).toHaveAttribute('aria-expanded', 'false');

    fireEvent.pointerEnter(wrapper(), { pointerType: 'mouse' });
    expect(button()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Hire' })).toBeVisible();

    fireEvent.pointerLeave(wrapper(), { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(DROPDOWN_CLOSE_DELAY_MS - 1));
    expect(DROPDOWN_CLOSE_DELAY_MS).toBe(200);
    expect(button()).toHaveAttribute('aria-expanded', 'true');

    act(() => vi.advanceTimersByTime(1));
    expect(button()).toHaveAttribute('aria-expanded', 'false');
  });

  it('stays open when the pointer comes back before the delay ends', () => {
    render(<Harness />);
    fireEvent.pointerEnter(wrapper(), { pointerType: 'mouse' });
    fireEvent.pointerLeave(wrapper(), { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(150));
    fireEvent.pointerEnter(wrapper(), { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(500));
    expect(button()).toHaveAttribute('aria-expanded', 'true');
  });

  it('ignores touch hover so a tap toggles instead', () => {
    render(<Harness />);
    fireEvent.pointerEnter(wrapper(), { pointerType: 'touch' });
    expect(button()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(button());
    expect(button()).toHaveAttribute('aria-expanded', 'true');
  });

  it('closes on an outside click', () => {
    render(<Harness />);
    fireEvent.click(button());
    expect(button()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.pointerDown(screen.getByText('Outside'));
    expect(button()).toHaveAttribute('aria-expanded', 'false');
  });

  it('does not close on a click inside the panel', () => {
    render(<Harness />);
    fireEvent.click(button());
    fireEvent.pointerDown(screen.getByRole('link', { name: 'Campus' }));
    expect(button()).toHaveAttribute('aria-expanded', 'true');
  });

  it('is usable by keyboard: ArrowDown opens and focuses the first item, arrows move, Escape closes and returns focus', () => {
    render(<Harness />);
    button().focus();
    fireEvent.keyDown(button(), { key: 'ArrowDown' });
    expect(button()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Hire' })).toHaveFocus();

    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(screen.getByRole('link', { name: 'Campus' })).toHaveFocus();
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowUp' });
    expect(screen.getByRole('link', { name: 'Career' })).toHaveFocus();

    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(button()).toHaveAttribute('aria-expanded', 'false');
    expect(button()).toHaveFocus();
  });

  it('closes when focus moves out of the menu', () => {
    render(<Harness />);
    fireEvent.click(button());
    const outside = document.createElement('button');
    document.body.append(outside);
    fireEvent.blur(screen.getByRole('link', { name: 'Career' }), { relatedTarget: outside });
    expect(button()).toHaveAttribute('aria-expanded', 'false');
    outside.remove();
  });
});
