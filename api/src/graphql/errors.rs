//! Domain errors as GraphQL errors: the message in the product's words, the stable code in
//! `extensions.code`, field errors in `extensions.errors`. Nothing internal leaks.

use async_graphql::{ErrorExtensions, Name, Value, indexmap::IndexMap};

use crate::error::Error;

pub trait IntoGql<T> {
    fn gql(self) -> async_graphql::Result<T>;

    /// As [`IntoGql::gql`], for a connection read with `first` and `after`: the domain names its
    /// page's fields as the REST query does (`limit`, `cursor`), the errors here name the
    /// arguments the caller sent.
    fn gql_page(self) -> async_graphql::Result<T>;
}

impl<T> IntoGql<T> for Result<T, Error> {
    fn gql(self) -> async_graphql::Result<T> {
        self.map_err(to_gql)
    }

    fn gql_page(self) -> async_graphql::Result<T> {
        self.map_err(|err| match err {
            Error::Validation(fields) => {
                Error::Validation(fields.renamed("limit", "first").renamed("cursor", "after"))
            }
            other => other,
        })
        .gql()
    }
}

pub fn to_gql(err: Error) -> async_graphql::Error {
    if let Error::Internal(cause) = &err {
        tracing::error!(error = ?cause, "internal error");
    }
    let message = err.to_string();
    async_graphql::Error::new(message).extend_with(|_, ext| {
        ext.set("code", err.code().as_str());
        if let Error::Validation(fields) = &err {
            let map: IndexMap<Name, Value> = fields
                .iter()
                .map(|(field, message)| (Name::new(field), Value::from(message)))
                .collect();
            ext.set("errors", Value::Object(map));
        }
        if let Some(secs) = err.retry_after() {
            ext.set("retryAfter", secs);
        }
    })
}
