package dev.esgen.processor.functional.library;

public sealed interface LoanEvent extends BookEvent permits LoanEvent.Lent, LoanEvent.Returned {

  record Lent(String borrower) implements LoanEvent {}

  record Returned() implements LoanEvent {}
}
