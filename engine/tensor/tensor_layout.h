// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A strided tensor as PyTorch stores it: shape, strides in elements, a storage offset, and the
// storage it points into. No data: only the bookkeeping that decides which element lives where.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// An element type and its size; the names follow napkin-cli's --dtype spelling.
struct TensorDType {
    std::string name;  ///< "fp32", "bf16", "int64", ...
    int64_t bytes = 4; ///< bytes per element (torch.Tensor.element_size())
};

/// fp32 4, fp16 2, bf16 2, fp8 (fp8-e4m3, fp8-e5m2) 1, fp64 8, int64 8, int32 4, int16 2, int8 1,
/// uint8 1, bool 1; nullopt for an unknown name.
std::optional<TensorDType> tensorDTypeFromName(std::string_view name);
/// The names tensorDTypeFromName accepts, for help text and option checks.
std::vector<std::string> tensorDTypeNames();

struct TensorLayout {
    std::vector<int64_t> shape;  ///< sizes per dimension
    std::vector<int64_t> stride; ///< elements to step in storage per unit of each index
    int64_t offset = 0;          ///< storage offset, in elements
    int64_t elementBytes = 4;    ///< bytes per element
    int storageId = 0;           ///< views share it; a copy gets a new one
    int64_t storageElements = 0; ///< elements in the underlying storage

    int dim() const { return static_cast<int>(shape.size()); }
    /// Product of the sizes (1 for a 0-d tensor, 0 if any size is 0).
    int64_t numel() const;
    /// storageElements · elementBytes.
    int64_t storageBytes() const { return storageElements * elementBytes; }
};

/// Row-major ("C-contiguous") strides for `shape`: stride[d] = Π shape[d+1..]; a size-0 or size-1
/// dimension counts as 1 in the product, as torch.empty(shape).stride() does.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape);

/// A fresh tensor on its own storage: contiguous strides, offset 0, storage of numel elements.
TensorLayout freshTensor(const std::vector<int64_t>& shape, int64_t elementBytes, int storageId);

/// torch.Tensor.is_contiguous(): strides are row-major, ignoring the stride of size-1 dimensions;
/// a tensor with no elements is contiguous.
bool isContiguous(const TensorLayout& t);

/// ATen's is_non_overlapping_and_dense: some permutation of the dimensions is contiguous (so the
/// elements exactly tile a block of storage). clone() keeps the strides of such tensors.
bool isNonOverlappingAndDense(const TensorLayout& t);

/// ATen's infer_dense_strides (aten/src/ATen/TensorUtils.cpp): strides of a dense tensor of `shape`
/// whose dimensions lie in storage in the order `stride` gives them. The order is TensorIterator's:
/// an insertion sort, innermost (last) dimension first, by stride; of equal strides the smaller size
/// goes inner; a dimension with stride 0 compares with nothing, so it keeps its row-major place while
/// the others are sorted around it. Sizes 0 and 1 add nothing to the running product. 0-d gives {},
/// 1-D gives {1}. E.g. shape (2,4,4,3), stride (0,12,1,4) → (48,12,1,4).
std::vector<int64_t> denseStridesLike(const std::vector<int64_t>& shape, const std::vector<int64_t>& stride);

/// The strides at::empty_like(t) allocates under memory_format=torch.preserve_format, which
/// clone() uses: t's own strides when isNonOverlappingAndDense(t), else denseStridesLike(t).
std::vector<int64_t> preserveFormatStrides(const TensorLayout& t);

/// Storage offset of the element at `index`: offset + Σ index[d]·stride[d]. Precondition: index is
/// in range and has dim() entries.
int64_t storageOffsetOf(const TensorLayout& t, const std::vector<int64_t>& index);

/// Storage offsets of all elements in row-major order of the view, or nullopt when there are more
/// than `limit` elements.
std::optional<std::vector<int64_t>> elementOffsets(const TensorLayout& t, int64_t limit = 65536);

/// "1·4 + 2·1 = 6" (with "offset + " in front when the storage offset is not 0): the arithmetic
/// that storageOffsetOf performs, for display next to the result.
std::string storageOffsetFormula(const TensorLayout& t, const std::vector<int64_t>& index);

/// "2,3" (spaces allowed; "()" for a 0-d tensor) → sizes; nullopt and a reason for a blank text,
/// anything but non-negative integers separated by commas, or more than 1e15 elements.
std::optional<std::vector<int64_t>> parseShapeText(std::string_view text, std::string* error);

/// "[2, 3]": PyTorch's spelling of a size list in messages.
std::string formatShape(const std::vector<int64_t>& values);

} // namespace napkin
